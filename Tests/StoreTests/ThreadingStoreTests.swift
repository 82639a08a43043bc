import Foundation
import GRDB
import Testing
@testable import Store

@Suite("Threads in the store")
struct ThreadingStoreTests {
    @Test("a thread row as the rethread writes it reads back equal to the record, inserted and updated")
    func threadRowWrites() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let latest = Date(timeIntervalSince1970: 1_795_000_000.123)
        var thread = ThreadRecord(id: nil, accountId: account, dirName: "2026-11-20 Budget", subject: "Budget",
                                  latestDate: latest, messageCount: 3, unreadCount: 2,
                                  participants: "Ann, Bob", snippet: "Numbers attached")
        // A column added to the record but not to the statements would be left at its default.
        #expect(Set(try thread.databaseDictionary.keys)
            == ["id", "accountId", "dirName", "subject", "latestDate", "messageCount", "unreadCount",
                "participants", "snippet"])
        try temp.store.pool.write { db in try ThreadWrites.insert(&thread, db) }
        // Dates as GRDB stores them (milliseconds): compared as the database holds them.
        let id = try #require(thread.id)
        #expect(try temp.store.pool.read { db in try ThreadRecord.fetchOne(db, key: id) }.map { $0.databaseEquals(thread) } == true)

        thread.subject = "Budget 2027"
        thread.latestDate = latest.addingTimeInterval(3600)
        thread.messageCount = 4
        thread.unreadCount = 0
        thread.participants = "Ann, Bob, Cy"
        thread.snippet = "Final numbers"
        try temp.store.pool.write { db in try ThreadWrites.updateSummary(of: thread, db) }
        #expect(try temp.store.pool.read { db in try ThreadRecord.fetchOne(db, key: id) }.map { $0.databaseEquals(thread) } == true)
    }

    @Test("a reply chain is one thread named after its root, stable as replies arrive")
    func stableThread() throws {
        let root = Fixture.message(id: "root@x", subject: "Budget 2027",
                                   date: "Mon, 02 Nov 2026 09:00:00 +0000")
        let (temp, account, inbox) = try Self.threadedInbox([root])
        let before = try #require(try temp.store.tree.threads(accountId: account).first)
        #expect(before.dirName == "2026-11-02 Budget 2027")

        let reply = Fixture.message(id: "r1@x", subject: "Re: Budget 2027", from: "Bob <bob@example.org>",
                                    date: "Tue, 03 Nov 2026 10:00:00 +0000", inReplyTo: "root@x",
                                    references: ["root@x"])
        _ = try temp.store.sync.ingest([temp.incoming(reply, folder: inbox, uid: 2)], accountId: account)
        try temp.store.sync.rethread(accountId: account)
        let threads = try temp.store.tree.threads(accountId: account)
        #expect(threads.count == 1)
        #expect(threads[0].id == before.id && threads[0].dirName == before.dirName)
        #expect(threads[0].messageCount == 2)
        #expect(threads[0].latestDate > before.latestDate)
        #expect(try temp.store.tree.messages(inThread: threads[0].id).count == 2)
    }

    @Test("server flag changes keep their threads' unread counts in the same write, with no rethread")
    func serverFlagsKeepUnreadCounts() throws {
        let root = Fixture.message(id: "root@x", subject: "Budget 2027", date: "Mon, 02 Nov 2026 09:00:00 +0000")
        let reply = Fixture.message(id: "r1@x", subject: "Re: Budget 2027", date: "Tue, 03 Nov 2026 10:00:00 +0000",
                                    inReplyTo: "root@x", references: ["root@x"])
        let (temp, account, inbox) = try Self.threadedInbox([root, reply])
        let thread = try #require(try temp.store.tree.threads(accountId: account).first)
        func unread() throws -> Int? {
            try temp.store.pool.read { db in
                try Int.fetchOne(db, sql: "SELECT unreadCount FROM thread WHERE id = ?", arguments: [thread.id])
            }
        }
        #expect(try unread() == 2)
        let seen = SyncStore.StoredFlags(seen: true, flagged: false, answered: false, draft: false)
        #expect(try temp.store.sync.applyServerFlags(folderId: inbox, [1: seen]) == 1)
        #expect(try unread() == 1)
        #expect(try temp.store.sync.applyServerFlags(folderId: inbox, [1: seen, 2: seen]) == 1, "only the one that differed")
        #expect(try unread() == 0)
        let unseen = SyncStore.StoredFlags(seen: false, flagged: true, answered: false, draft: false)
        #expect(try temp.store.sync.applyServerFlags(folderId: inbox, [2: unseen]) == 1)
        #expect(try unread() == 1)
    }

    @Test("a message that links two threads merges them into the oldest")
    func merge() throws {
        let a = Fixture.message(id: "a@x", subject: "Alpha", date: "Mon, 02 Nov 2026 09:00:00 +0000")
        let b = Fixture.message(id: "b@x", subject: "Beta", date: "Tue, 03 Nov 2026 09:00:00 +0000",
                                references: ["missing@x"])
        let (temp, account, inbox) = try Self.threadedInbox([a, b])
        #expect(try temp.store.tree.threads(accountId: account).count == 2)
        let oldest = try #require(try temp.store.tree.threads(accountId: account).min { $0.id < $1.id })
        let bridge = Fixture.message(id: "c@x", subject: "Re: both", date: "Wed, 04 Nov 2026 09:00:00 +0000",
                                     references: ["a@x", "missing@x"])
        _ = try temp.store.sync.ingest([temp.incoming(bridge, folder: inbox, uid: 3)], accountId: account)
        let touched = try temp.store.sync.rethread(accountId: account)
        let threads = try temp.store.tree.threads(accountId: account)
        #expect(threads.count == 1)
        #expect(threads[0].id == oldest.id && threads[0].messageCount == 3)
        #expect(touched.count == 2)
    }

    /// A store whose account has `messages` in its inbox (UIDs from 1), threaded.
    private static func threadedInbox(_ messages: [[UInt8]]) throws -> (TemporaryStore, account: Int64, inbox: Int64) {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        _ = try temp.store.sync.ingest(messages.enumerated().map { temp.incoming($1, folder: inbox, uid: Int64($0 + 1)) },
                                  accountId: account)
        try temp.store.sync.rethread(accountId: account)
        return (temp, account, inbox)
    }
}
