import Activity
import Foundation
@testable import Store
import Testing

/// Sync-window retention in the store, and the storage figures of `.status`.
@Suite("Retention and storage")
struct RetentionTests {
    /// An online account with `ages.count` inbox messages that arrived `ages[n]` days ago.
    func account(ages: [Double]) throws -> (TemporaryStore, Int64, Int64, [Int64]) {
        let temp = try TemporaryStore()
        let id = try temp.store.sync.ensureAccount(name: "work", address: "me@example.org", isOffline: false).id ?? -1
        let inbox = try temp.folder(id, "inbox", type: .inbox)
        let now = Date()
        let messages = ages.enumerated().map { n, age in
            IncomingMessage(raw: Fixture.message(id: "r\(n)@test", subject: "Message \(n) searchable"), folderId: inbox,
                            uid: Int64(n + 1), flags: MessageFlags(), arrival: now.addingTimeInterval(-age * 86_400))
        }
        _ = try temp.store.sync.ingest(messages, accountId: id)
        _ = try temp.store.sync.rethread(accountId: id)
        let ids = try temp.store.tree.messages(inFolder: inbox).map(\.id)
        return (temp, id, inbox, ids)
    }

    @Test("a smaller window removes older local copies, their cache files and index entries; flagged and pending stay")
    func purge() throws {
        let (temp, account, inbox, ids) = try account(ages: [60, 50, 40, 1])
        let context = WriteContext(accountId: account, isOffline: false, isGmail: false, deleteGuard: 100)
        let byAge = try ids.sorted { try temp.store.tree.message(id: $0)!.dateReceived < temp.store.tree.message(id: $1)!.dateReceived }
        // Flagged, and a change still in the journal: both kept.
        var offline = context
        offline.isOffline = true
        try temp.store.tree.changeFlag(.flagged, to: true, emailId: byAge[0], context: offline)
        try temp.store.tree.changeFlag(.seen, to: true, emailId: byAge[1], context: context)
        let cached = try temp.store.sync.keepContent(Array("cached".utf8), for: .message(byAge[2]), limitBytes: 1 << 20)
        let cutoff = SyncWindow.cutoff(days: 7)
        #expect(try temp.store.sync.countOutsideWindow(accountId: account, arrivedBefore: cutoff) == 1)
        #expect(try temp.store.sync.purgeOutsideWindow(accountId: account, arrivedBefore: cutoff) == 1)
        #expect(try temp.store.tree.message(id: byAge[2]) == nil)
        #expect(!FileManager.default.fileExists(atPath: cached.path))
        #expect(try temp.store.tree.messages(inFolder: inbox).count == 3)
        #expect(try temp.store.indexedCount("searchable") == 3)
        #expect(try temp.store.tree.threads(accountId: account).reduce(0) { $0 + $1.messageCount } == 3)
        #expect(try temp.store.sync.purgeOutsideWindow(accountId: account, arrivedBefore: cutoff) == 0)
    }

    @Test("storage figures follow what is stored, and the root .status warns above 5 GB")
    func storage() throws {
        let (temp, account, _, ids) = try account(ages: [1, 2])
        _ = try temp.store.sync.keepContent(Array(repeating: 65, count: 4096), for: .message(ids[0]), limitBytes: 1 << 20)
        let use = try temp.store.tree.storageUse(accountId: account)
        let raw = try ids.reduce(0) { $0 + (try temp.store.tree.rawMessage(emailId: $1)?.count ?? 0) }
        #expect(use.messages >= Int64(raw) && use.content == 4096 && use.index > 0)
        #expect(temp.store.tree.totalDiskUse() > use.content)
        let record = try #require(try temp.store.account(named: "work"))
        let facts = try #require(try temp.store.tree.statusFacts(record, activity: .init(), profile: .offline(name: "work", address: "")))
        #expect(StatusReport.root([("work", facts)], diskUse: 1 << 20).contains("storage: 1 MB\n"))
        #expect(StatusReport.root([("work", facts)], diskUse: 6_000_000_000).contains("warning: mailfs uses more than 5 GB"))
    }
}
