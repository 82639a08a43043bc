import Foundation
import Store
import Sync
import TestSupport
import Testing

/// The journal applier against the real Dovecot: rows recorded in the store reach the
/// server, replays after a crash apply nothing twice, stale UIDs are never trusted, and
/// refusals are reverted. (The mount tests drive the same paths through rm, mv, setfattr.)
@Suite("Write-back against a real Dovecot", .serialized)
struct WriteBackSyncTests: FolderSeeding {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-wb-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    /// The Message-IDs (without brackets) the server holds in a mailbox.
    func serverIds(_ mailbox: String) async throws -> [String] {
        try await TestServers.seed(["list", "--user", "alice", "--mailbox", mailbox]).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count > 2 else { return nil }
            return String(fields[2].dropFirst().dropLast())
        }
    }

    func context(_ harness: SyncHarness) throws -> WriteContext {
        WriteContext(accountId: try harness.accountId("work"), isOffline: false, isGmail: false, deleteGuard: 100)
    }

    func email(_ harness: SyncHarness, _ folder: String, messageId: String) throws -> Int64 {
        let entries = try harness.messages("work", folder)
        return try #require(entries.first { entry in
            (try? harness.store.tree.rawMessage(emailId: entry.id)).flatMap { $0 }
                .map { String(decoding: $0, as: UTF8.self).contains(messageId) } ?? false
        }?.id)
    }

    @Test("a move recorded before the source's UIDVALIDITY changed moves that message, found by Message-ID")
    func moveAcrossUIDValidity() async throws {
        // Resetting UIDVALIDITY disconnects every session that has the mailbox selected:
        // other tests' syncs of the same account must not run meanwhile.
        try await SharedServers.exclusive {
            let (folder, ids) = try await seededFolder("WBValidity", count: 3)
            let (target, _) = try await seededFolder("WBValidityTarget", count: 0)
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            await harness.sync("work")
            let chosen = try email(harness, folder, messageId: ids[1])
            try harness.store.tree.record(.move(fromFolder: try harness.folder("work", folder).id ?? -1,
                                           toFolder: try harness.folder("work", target).id ?? -1),
                                     emailId: chosen, context: try context(harness))
            // New UIDVALIDITY and new, higher UIDs: the recorded UID now names nothing (or another message).
            _ = try await TestServers.seed(["reset-uidvalidity", "--user", "alice", "--mailbox", folder])
            #expect(await harness.coordinator.applyJournal(account: "work"))
            #expect(try await serverIds(target) == [ids[1]], "\(harness.log("work"))")
            #expect(Set(try await serverIds(folder)) == [ids[0], ids[2]])
            await harness.sync("work")
            for path in [folder, target] { try await harness.expectAgreement("work", user: "alice", folder: path) }
        }
    }

    @Test("a move replayed after a crash that had already moved it finishes without moving anything twice")
    func replayAfterCrash() async throws {
        try await SharedServers.shared {
            let (folder, ids) = try await seededFolder("WBReplay", count: 2)
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            await harness.sync("work")
            let chosen = try email(harness, folder, messageId: ids[0])
            let accountId = try harness.accountId("work")
            try harness.store.tree.record(.remove(fromFolder: try harness.folder("work", folder).id ?? -1),
                                     emailId: chosen, context: try context(harness))
            // The previous process claimed the row and moved the message, then died.
            let row = try #require(try harness.store.sync.dueChanges(accountId: accountId).batch.first?.id)
            try harness.store.sync.transition([.init(id: row, event: .claim)], machine: .untimed)
            _ = try await TestServers.seed(["move", "--user", "alice", "--mailbox", folder, "--message-id", "<\(ids[0])>",
                                      "--to", "Trash"])
            #expect(try harness.store.sync.recoverInterrupted(accountId: accountId, machine: .untimed) == 1)
            #expect(await harness.coordinator.applyJournal(account: "work"))
            #expect(try await serverIds(folder) == [ids[1]])
            #expect(try await serverIds("Trash").filter { $0 == ids[0] }.count == 1)
            #expect(try harness.store.tree.journalCounts(accountId: accountId).pending == 0)
            #expect(try harness.messages("work", "trash").contains { $0.id == chosen })
            await harness.sync("work")
            try await harness.expectAgreement("work", user: "alice", folder: folder)
            #expect(try harness.messages("work", "trash").contains { $0.id == chosen }, "still the same message after a sync")
        }
    }

    @Test("a move into a folder the server does not have is retried, then reverted with the reason")
    func refusedMoveReverts() async throws {
        try await SharedServers.shared {
            let (folder, ids) = try await seededFolder("WBRefused", count: 1)
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            await harness.sync("work")
            let accountId = try harness.accountId("work")
            let ghost = try harness.store.sync.ensureFolder(accountId: accountId, path: "Ghost-\(UUID().uuidString.prefix(6))",
                                                       imapPath: "Ghost-\(UUID().uuidString)", type: .custom)
            let chosen = try email(harness, folder, messageId: ids[0])
            try harness.store.tree.record(.move(fromFolder: try harness.folder("work", folder).id ?? -1, toFolder: ghost.id ?? -1),
                                     emailId: chosen, context: try context(harness))
            #expect(try harness.messages("work", folder).isEmpty)
            // retry_delay_seconds = 0 in tests: every retry is due at once.
            for _ in 0..<5 where try harness.store.tree.journalCounts(accountId: accountId).pending > 0 {
                #expect(await harness.coordinator.applyJournal(account: "work"))
            }
            #expect(try harness.messages("work", folder).map(\.id) == [chosen])
            #expect(try await serverIds(folder) == [ids[0]])
            try await harness.expectAgreement("work", user: "alice", folder: folder)
            #expect(harness.state("work").changeError?.contains("reverted") == true, "\(harness.log("work"))")
        }
    }

    @Test("flags and an APPEND reach the server; the APPEND is not repeated on replay")
    func flagsAndAppend() async throws {
        try await SharedServers.shared {
            let (folder, ids) = try await seededFolder("WBFlags", count: 1)
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            await harness.sync("work")
            let context = try context(harness)
            let chosen = try email(harness, folder, messageId: ids[0])
            try harness.store.tree.changeFlag(.flagged, to: true, emailId: chosen, context: context)
            let note = Array("From: Me <alice@example.test>\r\nSubject: Note\r\nMessage-ID: <note-\(folder)@test>\r\n\r\nhi\r\n".utf8)
            let folderId = try harness.folder("work", folder).id ?? -1
            _ = try harness.store.tree.recordAppend(note, folderId: folderId, flags: .init(seen: true), context: context)
            #expect(await harness.coordinator.applyJournal(account: "work"))
            let listing = try await TestServers.seed(["list", "--user", "alice", "--mailbox", folder])
            #expect(listing.contains("\\Flagged") && listing.contains("note-\(folder)@test"), "\(listing)")
            // A replay of the same APPEND (as after a crash) finds it instead of adding it again.
            _ = try harness.store.tree.recordAppend(note, folderId: folderId, flags: .init(seen: true), context: context)
            #expect(await harness.coordinator.applyJournal(account: "work"))
            #expect(try await serverIds(folder).filter { $0 == "note-\(folder)@test" }.count == 1)
            await harness.sync("work")
            try await harness.expectAgreement("work", user: "alice", folder: folder)
        }
    }

    @Test("a write-back batch on a fresh connection leaves .status idle, and its connection counted as idle")
    func writeBackLeavesStatusIdle() async throws {
        try await SharedServers.shared {
            let (folder, ids) = try await seededFolder("WBStatus", count: 1)
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            await harness.sync("work")
            try await harness.dropPooledConnections("work")
            let chosen = try email(harness, folder, messageId: ids[0])
            try harness.store.tree.changeFlag(.flagged, to: true, emailId: chosen, context: try context(harness))
            #expect(await harness.coordinator.applyJournal(account: "work"))
            let state = harness.state("work")
            #expect(state.phase == .idle && state.progress == "none", "\(state)")
            #expect(state.connections.hasPrefix("0 active,") && state.connections.contains(" 1 idle,"), "\(state.connections)")
        }
    }
}
