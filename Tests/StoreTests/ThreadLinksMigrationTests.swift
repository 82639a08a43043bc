import Foundation
import GRDB
import MailCore
import Testing
@testable import Store

/// v10-thread-links on a store written by v9: every message gets its link keys, and a
/// thread that lost a message before the migration is owed a rethread.
@Suite("Migrating to thread links")
struct ThreadLinksMigrationTests {
    /// A v9 store: "Plans" and its reply in thread 1; thread 2 counts two messages, one of
    /// which was deleted (by a version that left its thread as it was).
    func v9Store() throws -> URL {
        try Fixture.legacyStore("v9-store", upTo: "v9-multi-folder-emails") { db in
            try db.execute(sql: """
                INSERT INTO account (id, name, address, isOffline, createdAt) VALUES (1, 'work', 'w@x', 1, '2026-01-01');
                INSERT INTO folder (id, accountId, path, imapPath, type) VALUES (1, 1, 'inbox', 'INBOX', 'inbox');
                INSERT INTO thread (id, accountId, dirName, subject, latestDate, messageCount, unreadCount, participants, snippet)
                VALUES (1, 1, '2026-01-01 Plans', 'Plans', '2026-01-02', 2, 2, 'A', ''),
                       (2, 1, '2026-01-05 Lunch', 'Lunch', '2026-01-05', 2, 2, 'A', '');
                """)
            let rows: [(Int64, Int64, String, String, String)] = [
                (1, 1, "plans@x", "", "Plans"), (2, 1, "reply@x", "plans@x", "Re: Plans"), (3, 2, "lunch@x", "", "Lunch"),
            ]
            for (id, thread, messageId, inReplyTo, subject) in rows {
                try db.execute(sql: """
                    INSERT INTO email (id, accountId, threadId, fingerprint, messageId, inReplyTo, "references", fromAddress,
                        fromName, toAddresses, ccAddresses, bccAddresses, subject, dateReceived, isRead, isStarred, isDraft,
                        isAnswered, sizeBytes, snippet, hasAttachments, fileName)
                    VALUES (?, 1, ?, ?, ?, ?, '', 'a@x', 'A', '', '', '', ?, '2026-01-0' || ?, 0, 0, 0, 0, 10, '', 0, ?)
                    """, arguments: [id, thread, "f\(id)", messageId, inReplyTo, subject, id, "message \(id).eml"])
                try db.execute(sql: "INSERT INTO emailFolder (emailId, folderId, imapUID) VALUES (?, 1, ?)", arguments: [id, id])
            }
        }
    }

    @Test("every message gets its keys, a thread whose count is off is stale, and the next rethread regroups only that")
    func migrates() throws {
        let dir = try v9Store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try MailStore(directory: dir)
        try store.pool.read { db in
            let keys = try Int64.fetchAll(db, sql: "SELECT key FROM threadLink WHERE emailId = 2 ORDER BY key")
            let expected = ThreadLinkKeys.keys(of: ThreadingInput(id: 2, messageID: "reply@x", inReplyTo: ["plans@x"],
                                                                  references: [], subject: "Re: Plans", date: Date()))
            #expect(keys == expected.sorted() && keys.count == 3)
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM thread WHERE isStale") == [2])
        }
        #expect(try store.sync.owesRethread(accountId: 1))

        let reply = IncomingMessage(raw: Fixture.message(id: "late@x", subject: "Re: Plans", inReplyTo: "<reply@x>"),
                                    folderId: 1, uid: 9, flags: MessageFlags(), arrival: Date())
        _ = try store.sync.ingest([reply], accountId: 1)
        #expect(try store.sync.rethread(accountId: 1) == [1, 2])
        let threads = try store.tree.threads(accountId: 1).sorted { $0.id < $1.id }
        #expect(threads.map(\.dirName) == ["2026-01-01 Plans", "2026-01-05 Lunch"])
        #expect(threads.map(\.messageCount) == [3, 1])
        #expect(try !store.sync.owesRethread(accountId: 1))
    }
}
