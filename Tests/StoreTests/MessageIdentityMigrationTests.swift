import Foundation
import GRDB
import MailCore
import StoreTestSupport
import Testing
@testable import Store

/// v4-message-identity on a store written by v3, where one row stood for each Message-ID.
@Suite("Migrating to message fingerprints")
struct MessageIdentityMigrationTests {
    let small = Fixture.message(id: "small@x", subject: "Stored whole")
    let largeSize = 900_000

    /// A v3 store: a message stored whole, a large one stored in part, a deleted one.
    func v3Store() throws -> URL {
        try Fixture.legacyStore("v3-store", upTo: "v3-retention-index") { db in
            try db.execute(sql: """
                INSERT INTO account (id, name, address, isOffline, createdAt) VALUES (1, 'work', 'w@x', 0, '2026-01-01');
                INSERT INTO folder (id, accountId, path, imapPath, type) VALUES (1, 1, 'inbox', 'INBOX', 'inbox');
                INSERT INTO folder (id, accountId, path, imapPath, type) VALUES (2, 1, 'Archive', 'Archive', 'custom');
                """)
            for (id, messageId, size) in [(1, "small@x", small.count), (2, "large@x", largeSize), (3, "gone@x", 10)] {
                try db.execute(sql: """
                    INSERT INTO email (id, accountId, dedupKey, messageId, inReplyTo, "references", fromAddress, fromName,
                        toAddresses, ccAddresses, bccAddresses, subject, dateReceived, isRead, isStarred, isDraft,
                        isAnswered, sizeBytes, snippet, hasAttachments, fileName)
                    VALUES (?, 1, ?, ?, '', '', 'a@x', 'A', '', '', '', 'Subject', '2026-01-01', 0, 0, 0, 0, ?, '', 0, ?)
                    """, arguments: [id, "<\(messageId)>", messageId, size, "message \(id).eml"])
                try db.execute(sql: "INSERT INTO emailFolder (emailId, folderId, imapUID) VALUES (?, 1, ?)", arguments: [id, id])
            }
            try db.execute(sql: "INSERT INTO messageContent (emailId, raw) VALUES (1, ?)", arguments: [Data(small)])
            try db.execute(sql: "DELETE FROM email WHERE id = 3")
        }
    }

    @Test("rows keep their ids, names and folders; stored bytes get their fingerprint")
    func keepsRows() throws {
        let dir = try v3Store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try MailStore(directory: dir)
        #expect(try store.tree.messages(inFolder: 1).map(\.id) == [1, 2])
        #expect(try store.tree.messages(inFolder: 1).map(\.fileName) == ["message 1.eml", "message 2.eml"])
        #expect(try ListingInvariant.counts(store, account: "work", folder: "inbox") == .agreeing(on: 2))
        #expect(try store.sync.serverMatch(emailId: 1) == ServerMatch(fingerprint: MessageFingerprint(message: small), size: small.count))
        #expect(try store.sync.serverMatch(emailId: 2) == ServerMatch(fingerprint: nil, size: largeSize))
        try store.pool.read { db in
            let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'email'")
            // The table rebuilt with its indexes, less the two v5-redundant-indexes drops.
            #expect(Set(indexes).isSuperset(of: ["email_on_threadId", "email_unread",
                                                  "email_listing", "email_arrival", "email_fingerprint"]))
            #expect(Set(indexes).isDisjoint(with: ["email_on_thread", "email_on_accountId"]))
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
        }
    }

    @Test("ids of deleted messages are not handed out again")
    func keepsSequence() throws {
        let dir = try v3Store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try MailStore(directory: dir)
        let incoming = IncomingMessage(raw: Fixture.message(id: "new@x", subject: "New"), folderId: 1, uid: 7,
                                       flags: MessageFlags(), arrival: Date())
        _ = try store.sync.ingest([incoming], accountId: 1)
        #expect(try store.tree.messages(inFolder: 1).map(\.id).max() == 4)
    }

    @Test("a large message stored before fingerprints is linked by Message-ID and size, then by fingerprint")
    func legacyLargeMessage() throws {
        let dir = try v3Store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try MailStore(directory: dir)
        let copy = MessageFingerprint(size: largeSize, header: Array("Message-ID: <large@x>\r\n\r\n".utf8))
        let fragment = MessageFingerprint(size: 3000, header: Array("Message-ID: <large@x>\r\n\r\n".utf8))
        #expect(!(try store.sync.linkKnownMessage(fingerprint: fragment, messageID: "large@x", accountId: 1, folderId: 2, uid: 1)))
        #expect(try store.sync.linkKnownMessage(fingerprint: copy, messageID: "large@x", accountId: 1, folderId: 2, uid: 2))
        #expect(try store.sync.serverMatch(emailId: 2)?.fingerprint == copy)
    }

    @Test("a second message with a Message-ID already stored is listed after the migration")
    func secondMessageWithSameId() throws {
        let dir = try v3Store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try MailStore(directory: dir)
        let other = Fixture.message(id: "small@x", subject: "Stored whole", body: "Another body.\n")
        _ = try store.sync.ingest([IncomingMessage(raw: other, folderId: 1, uid: 8, flags: MessageFlags(), arrival: Date())],
                             accountId: 1)
        #expect(try ListingInvariant.counts(store, account: "work", folder: "inbox") == .agreeing(on: 3))
    }
}
