import Activity
import Foundation
import Logging
import Store
@testable import Sync
import TestSupport
import Testing

/// A folder unchanged since its last complete sync is synced by EXAMINE alone, against the
/// real Dovecot; whatever another client changes, or a listing here that lost a message,
/// makes the next sync look at the whole folder again, and it ends as a full sync would.
@Suite("An unchanged folder against a real Dovecot", .serialized)
struct UnchangedFolderSyncTests: FolderSeeding {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-unchanged-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    /// A fresh folder of alice's with three messages, synced once with the whole account.
    func syncedFolder() async throws -> (SyncHarness, String) {
        let (folder, _) = try await seededFolder("Unchanged", count: 3)
        let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
        await harness.sync("work")
        #expect(try harness.messages("work", folder).count == 3, "\(harness.log("work"))")
        return (harness, folder)
    }

    @Test("a folder nobody changed is unchanged after its complete sync, again and again, its listing as it was")
    func nothingChanged() async throws {
        try await SharedServers.shared {
            let (harness, folder) = try await syncedFolder()
            let before = try harness.messages("work", folder).map(\.id)
            for _ in 0..<2 {
                #expect(try await harness.syncFolder("work", folder).unchanged)
            }
            #expect(try harness.messages("work", folder).map(\.id) == before)
            try await harness.expectAgreement("work", user: "alice", folder: folder)
        }
    }

    @Test("another client's append, flag change or expunge: the next sync looks at the whole folder, the one after is unchanged",
          arguments: ["append", "flag", "expunge"])
    func changedByAnotherClient(_ change: String) async throws {
        try await SharedServers.shared {
            let (harness, folder) = try await syncedFolder()
            let first = "<\(folder)-0@test>"
            switch change {
            case "append":
                let file = try TestServers.messageFile(id: "\(folder)-new@test", subject: "new", body: "new\n", in: work)
                try await TestServers.seed(["append", "--user", "alice", "--mailbox", folder, file.path])
            case "flag":
                try await TestServers.seed(["flag", "--user", "alice", "--mailbox", folder, "--message-id", first, "--add", "\\Flagged"])
            default:
                try await TestServers.seed(["expunge", "--user", "alice", "--mailbox", folder, "--message-id", first])
            }
            let result = try await harness.syncFolder("work", folder)
            #expect(!result.unchanged)
            let expected: [Int] = switch change {
            case "append": [1, 0, 0]
            case "flag": [0, 1, 0]
            default: [0, 0, 1]
            }
            #expect([result.added, result.flagChanges, result.removed] == expected, "\(result)")
            #expect(try await harness.syncFolder("work", folder).unchanged)
            try await harness.expectAgreement("work", user: "alice", folder: folder)
        }
    }

    @Test("a message missing from the listing here is fetched again although the server did not change")
    func listingLostAMessage() async throws {
        try await SharedServers.shared {
            let (harness, folder) = try await syncedFolder()
            let record = try harness.folder("work", folder)
            let uid = try #require(try harness.store.sync.knownMessages(folderId: record.id ?? -1).keys.min())
            #expect(try harness.store.sync.removeFromFolder(folderId: record.id ?? -1, uids: [uid]) == 1)
            let result = try await harness.syncFolder("work", folder)
            #expect(!result.unchanged && result.added + result.linked == 1, "\(result)")
            #expect(try harness.messages("work", folder).count == 3)
            #expect(try await harness.syncFolder("work", folder).unchanged)
        }
    }

    @Test("a wider sync window makes the sync look at the whole folder")
    func widerWindow() async throws {
        try await SharedServers.shared {
            let (harness, folder) = try await syncedFolder()
            #expect(!(try await harness.syncFolder("work", folder, widenWindowBy: 30).unchanged))
            #expect(try await harness.syncFolder("work", folder, widenWindowBy: 30).unchanged)
        }
    }
}
