import Foundation
import Store
import Sync
import TestSupport
import Testing

/// Issue 11, "no message is ever hidden", against the real Dovecot: messages sharing a
/// Message-ID are each listed under their own name; only the same server message in
/// several folders (a COPY) is one message; the journal never takes another message for
/// its own because they share a Message-ID.
@Suite("The same message against a real Dovecot", .serialized)
struct SameMessageSyncTests {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-same-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    /// A torture test over `raw_store_max_kb` (stored in part) and a 3 KB fragment of it.
    static func tortureAndFragment(id: String) -> (torture: [UInt8], fragment: [UInt8]) {
        let torture = TestServers.message(id: id, subject: "Torture test",
                                          body: (0..<20_000).map { "torture line \($0)\r\n" }.joined()).bytes
        let cut = torture[..<3000].lastIndex(of: 10).map { $0 + 1 } ?? 3000
        return (torture, Array(torture[..<cut]))
    }

    func newFolder(_ label: String) async throws -> String {
        let folder = "\(label)-\(UUID().uuidString.prefix(8))"
        try await TestServers.seed(["create-mailbox", "--user", "alice", folder])
        return folder
    }

    /// A fresh folder holding `messages`, appended in order by another client.
    func seeded(_ label: String, _ messages: [[UInt8]]) async throws -> String {
        let folder = try await newFolder(label)
        for raw in messages { try await append(raw, to: folder) }
        return folder
    }

    /// APPENDs as another client would; returns the UID the server gave.
    @discardableResult
    func append(_ raw: [UInt8], to mailbox: String) async throws -> String {
        let file = work.appendingPathComponent("\(UUID().uuidString).eml")
        try Data(raw).write(to: file)
        let output = try await TestServers.seed(["append", "--user", "alice", "--mailbox", mailbox, file.path])
        return String(output.split(separator: " ").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func syncedHarness() async throws -> SyncHarness {
        let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
        await harness.sync("work")
        #expect(harness.failedOnlyElsewhere("work"), "\(harness.log("work"))")
        return harness
    }

    @Test("a torture test, a fragment of it and a resend in one folder share a Message-ID: all three are listed")
    func sameIdOneFolder() async throws {
        try await SharedServers.shared {
            let id = "torture-\(UUID().uuidString)@test"
            let (torture, fragment) = Self.tortureAndFragment(id: id)
            let resent = TestServers.message(id: id, subject: "Torture test", body: "resent\r\n", headers: ["Resent-To: b@x"]).bytes
            let folder = try await seeded("SameId", [torture, fragment, resent])
            let harness = try await syncedHarness()
            try await harness.expectAgreement("work", user: "alice", folder: folder)
            let listed = try harness.messages("work", folder)
            #expect(Set(listed.map(\.sizeBytes)) == Set([torture, fragment, resent].map { Int64($0.count) }))
            let large = try #require(listed.first { $0.sizeBytes == Int64(torture.count) })
            #expect(try harness.store.tree.rawMessage(emailId: large.id) == nil, "over raw_store_max_kb: stored in part")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: try await harness.coordinator.content(.message(large.id)).file().path))
            #expect([UInt8](bytes) == torture, "the torture test's file holds the torture test")
            let small = try listed.compactMap { try harness.store.tree.rawMessage(emailId: $0.id) }
            #expect(Set(small) == [fragment, resent])
        }
    }

    @Test("in two folders messages sharing a Message-ID stay two; a COPY is the same message, one row")
    func acrossFolders() async throws {
        try await SharedServers.shared {
            let (first, second, copies) = (try await newFolder("SameIdA"), try await newFolder("SameIdB"), try await newFolder("SameIdCopy"))
            let (torture, fragment) = Self.tortureAndFragment(id: "across-\(UUID().uuidString)@test")
            let uid = try await append(torture, to: first)
            try await append(fragment, to: second)
            try await TestServers.seed(["copy", "--user", "alice", "--mailbox", first, "--uids", uid, "--to", copies])
            let harness = try await syncedHarness()
            for folder in [first, second, copies] { try await harness.expectAgreement("work", user: "alice", folder: folder) }
            let original = try #require(try harness.messages("work", first).first)
            #expect(try harness.messages("work", copies).map(\.id) == [original.id])
            #expect(original.folderCount == 2)
            #expect(try harness.messages("work", second).first?.id != original.id)
        }
    }

    @Test("messages without a Message-ID are never merged, not even a COPY of one")
    func withoutMessageID() async throws {
        try await SharedServers.shared {
            let (first, second) = (try await newFolder("NoIdA"), try await newFolder("NoIdB"))
            let raw = TestServers.message(id: nil, subject: "No Message-ID \(UUID().uuidString)", body: "no id\r\n").bytes
            let uid = try await append(raw, to: first)
            try await append(raw, to: first)
            try await TestServers.seed(["copy", "--user", "alice", "--mailbox", first, "--uids", uid, "--to", second])
            let harness = try await syncedHarness()
            for folder in [first, second] { try await harness.expectAgreement("work", user: "alice", folder: folder) }
            let ids = try [first, second].flatMap { try harness.messages("work", $0).map(\.id) }
            #expect(Set(ids).count == 3)
        }
    }

    @Test("after a UIDVALIDITY change each message sharing a Message-ID comes back to its own row")
    func uidValidityChange() async throws {
        // Resetting UIDVALIDITY disconnects every session that has the mailbox selected.
        try await SharedServers.exclusive {
            let id = "reset-\(UUID().uuidString)@test"
            let (torture, fragment) = Self.tortureAndFragment(id: id)
            let small = TestServers.message(id: id, subject: "Small", body: "small\r\n").bytes
            let folder = try await seeded("SameIdReset", [torture, fragment, small, small])
            let harness = try await syncedHarness()
            let before = try harness.messages("work", folder)
            let bytes = try Dictionary(uniqueKeysWithValues: before.map { ($0.id, try harness.store.tree.rawMessage(emailId: $0.id)) })
            try await TestServers.seed(["reset-uidvalidity", "--user", "alice", "--mailbox", folder])
            await harness.sync("work")
            try await harness.expectAgreement("work", user: "alice", folder: folder)
            let after = try harness.messages("work", folder)
            #expect(Set(after.map(\.id)) == Set(before.map(\.id)), "\(harness.log("work"))")
            for message in after {
                #expect(try harness.store.tree.rawMessage(emailId: message.id) == bytes[message.id] ?? nil)
            }
        }
    }

    @Test("a file copied into a folder is the server's message: a COPY of it elsewhere is linked, whatever its line ends",
          arguments: [
              "From: Me <alice@example.test>\nSubject: LF\nMessage-ID: <%ID%>\n\nbody\nmore\n",
              "From: Me <alice@example.test>\r\nSubject: CRLF\r\nMessage-ID: <%ID%>\r\n\r\nbody\r\n",
              "From: Me <alice@example.test>\nSubject: header only\nMessage-ID: <%ID%>\n",
          ])
    func appendedThenCopied(template: String) async throws {
        try await SharedServers.shared {
            let (folder, other) = (try await newFolder("Appended"), try await newFolder("AppendedCopy"))
            let id = "appended-\(UUID().uuidString)@test"
            let harness = try await syncedHarness()
            let context = WriteContext(accountId: try harness.accountId("work"), isOffline: false, isGmail: false, deleteGuard: 100)
            _ = try harness.store.tree.recordAppend(Array(template.replacingOccurrences(of: "%ID%", with: id).utf8),
                                               folderId: try harness.folder("work", folder).id ?? -1,
                                               flags: .init(seen: true), context: context)
            #expect(await harness.coordinator.applyJournal(account: "work"))
            try await TestServers.seed(["copy", "--user", "alice", "--mailbox", folder, "--message-id", "<\(id)>", "--to", other])
            await harness.sync("work")
            for path in [folder, other] { try await harness.expectAgreement("work", user: "alice", folder: path) }
            #expect(try harness.messages("work", other).map(\.id) == harness.messages("work", folder).map(\.id))
        }
    }

    @Test("a replayed APPEND is not skipped because another message in the folder shares its Message-ID")
    func appendBesideSameId() async throws {
        try await SharedServers.shared {
            let id = "append-\(UUID().uuidString)@test"
            let folder = try await seeded("SameIdAppend", [TestServers.message(id: id, subject: "Theirs", body: "another client's message\r\n").bytes])
            let harness = try await syncedHarness()
            let mine = TestServers.message(id: id, subject: "Mine", body: "my edited copy\r\n").bytes
            let context = WriteContext(accountId: try harness.accountId("work"), isOffline: false, isGmail: false, deleteGuard: 100)
            _ = try harness.store.tree.recordAppend(mine, folderId: try harness.folder("work", folder).id ?? -1,
                                               flags: .init(seen: true), context: context)
            #expect(await harness.coordinator.applyJournal(account: "work"))
            #expect(try await TestServers.count(user: "alice", mailbox: folder) == 2, "\(harness.log("work"))")
            await harness.sync("work")
            try await harness.expectAgreement("work", user: "alice", folder: folder)
        }
    }

    @Test("a move whose message left the source is not taken as done by another message sharing its Message-ID")
    func moveBesideSameId() async throws {
        try await SharedServers.shared {
            let (source, target) = (try await newFolder("SameIdFrom"), try await newFolder("SameIdTo"))
            let id = "move-\(UUID().uuidString)@test"
            try await append(TestServers.message(id: id, subject: "Moved", body: "the one the user moves\r\n").bytes, to: source)
            let harness = try await syncedHarness()
            let moved = try #require(try harness.messages("work", source).first)
            let context = WriteContext(accountId: try harness.accountId("work"), isOffline: false, isGmail: false, deleteGuard: 100)
            try harness.store.tree.record(.move(fromFolder: try harness.folder("work", source).id ?? -1,
                                           toFolder: try harness.folder("work", target).id ?? -1),
                                     emailId: moved.id, context: context)
            // Meanwhile another client deletes it, and files another message with its Message-ID.
            try await TestServers.seed(["expunge", "--user", "alice", "--mailbox", source, "--message-id", "<\(id)>"])
            let other = TestServers.message(id: id, subject: "Other", body: "someone else's message\r\n").bytes
            try await append(other, to: target)
            #expect(await harness.coordinator.applyJournal(account: "work"))
            await harness.sync("work")
            for folder in [source, target] { try await harness.expectAgreement("work", user: "alice", folder: folder) }
            let listed = try #require(try harness.messages("work", target).first)
            #expect(try harness.store.tree.rawMessage(emailId: listed.id) == other, "the target's file holds the target's message")
        }
    }
}
