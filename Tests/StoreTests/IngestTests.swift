import Foundation
import GRDB
import MailCore
import StoreTestSupport
import Testing
@testable import Store

@Suite("Storing messages")
struct IngestTests {
    @Test("the full-text index keeps a text whole up to its limit and cuts a longer one at that many characters",
          arguments: [SearchEntry.maxBodyCharacters, SearchEntry.maxBodyCharacters + 3])
    func indexedTextLimit(characters: Int) {
        // "é" is two UTF-8 bytes: a text within the limit in characters but not in bytes
        // must still be kept whole.
        let text = String(repeating: "é", count: characters)
        let raw = Array("From: a@x\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(text)".utf8)
        let prepared = PreparedMessage(IncomingMessage(raw: raw, folderId: 1, uid: 1, flags: .init(), arrival: Date()))
        #expect(prepared.searchEntry.body.count == min(characters, SearchEntry.maxBodyCharacters))
    }

    @Test("the store directory is 0700 and its database files 0600")
    func permissions() throws {
        let temp = try TemporaryStore()
        _ = try temp.account()
        let fm = FileManager.default
        let dirMode = try fm.attributesOfItem(atPath: temp.directory.path)[.posixPermissions] as? Int
        #expect(dirMode == 0o700)
        for name in try fm.contentsOfDirectory(atPath: temp.directory.path) {
            let mode = try fm.attributesOfItem(atPath: temp.directory.appendingPathComponent(name).path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name) has mode \(String(mode ?? 0, radix: 8))")
        }
    }

    @Test("the same message again under its UID is stored once; in a second folder it is linked")
    func crossFolderDedup() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let work = try temp.folder(account, "Work")
        let raw = Fixture.message(id: "a@x", subject: "Lunch plans")
        let first = try temp.store.sync.ingest([temp.incoming(raw, folder: inbox, uid: 1)], accountId: account)
        let again = try temp.store.sync.ingest([temp.incoming(raw, folder: inbox, uid: 1)], accountId: account)
        let other = try temp.store.sync.ingest([temp.incoming(raw, folder: work, uid: 7)], accountId: account)
        #expect(first.added == 1 && again.alreadyPresent == 1 && other.linked == 1)
        let inInbox = try temp.store.tree.messages(inFolder: inbox)
        let inWork = try temp.store.tree.messages(inFolder: work)
        #expect(inInbox.count == 1 && inWork.count == 1)
        #expect(inInbox[0].id == inWork[0].id)
        #expect(inInbox[0].folderCount == 2)
        #expect(inInbox[0].fileName == "2026-11-20 1432 Alice Smith - Lunch plans.eml")
        #expect(inInbox[0].sizeBytes == Int64(raw.count))
        #expect(try temp.store.tree.rawMessage(emailId: inInbox[0].id) == raw)
        #expect(try ListingInvariant.counts(temp.store, account: "test", folder: "inbox") == .agreeing(on: 1))
        #expect(try ListingInvariant.counts(temp.store, account: "test", folder: "Work") == .agreeing(on: 1))
    }

    @Test("imported messages without a Message-ID are recognised by their bytes")
    func digestDedup() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let a = Fixture.message(id: nil, subject: "No id", body: "one\n")
        let b = Fixture.message(id: nil, subject: "No id", body: "two\n")
        let summary = try temp.store.sync.ingest(
            [temp.incoming(a, folder: inbox, uid: 1), temp.incoming(b, folder: inbox, uid: 2),
             temp.incoming(a, folder: inbox, uid: 3)], accountId: account)
        #expect(summary.added == 2 && summary.alreadyPresent == 1)
        #expect(try ListingInvariant.counts(temp.store, account: "test", folder: "inbox") == .agreeing(on: 2))
    }

    @Test("colliding file names are disambiguated and stay unique")
    func uniqueNames() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let messages = (1...3).map { n in
            temp.incoming(Fixture.message(id: "m\(n)@x", subject: "Same"), folder: inbox, uid: Int64(n))
        }
        _ = try temp.store.sync.ingest(messages, accountId: account)
        let names = try temp.store.tree.messages(inFolder: inbox).map(\.fileName)
        #expect(try ListingInvariant.counts(temp.store, account: "test", folder: "inbox") == .agreeing(on: 3))
        #expect(names.contains("2026-11-20 1432 Alice Smith - Same.eml"))
    }

    @Test("the full-text index finds words of the subject, the addresses and the body")
    func fullText() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        _ = try temp.store.sync.ingest([temp.incoming(
            Fixture.message(id: "f@x", subject: "Quarterly numbers", body: "The budget is attached.\n"),
            folder: inbox, uid: 1)], accountId: account)
        #expect(try temp.store.indexedCount("budget") == 1)
        #expect(try temp.store.indexedCount("quarterly") == 1)
        #expect(try temp.store.indexedCount("alice") == 1)
        #expect(try temp.store.indexedCount("giraffe") == 0)
    }

    @Test("flags set locally are read back, and thread unread counts follow")
    func flags() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        _ = try temp.store.sync.ingest([temp.incoming(Fixture.message(id: "s@x", subject: "Flag me"),
                                                 folder: inbox, uid: 1)], accountId: account)
        try temp.store.sync.rethread(accountId: account)
        let id = try #require(try temp.store.tree.messages(inFolder: inbox).first?.id)
        try temp.store.setFlag(.seen, to: true, emailId: id)
        try temp.store.setFlag(.flagged, to: true, emailId: id)
        let message = try #require(try temp.store.tree.message(id: id))
        #expect(message.isRead && message.isStarred)
        let thread = try #require(try temp.store.tree.threads(accountId: account).first)
        #expect(thread.messageCount == 1)
        #expect(try temp.store.tree.folderStatus(accountId: account).first?.unread == 0)
    }

    @Test("forgetting an account deletes all of its data")
    func forget() throws {
        let temp = try TemporaryStore()
        let account = try temp.account("gone")
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        _ = try temp.store.sync.ingest([temp.incoming(Fixture.message(id: "g@x", subject: "Bye"),
                                                 folder: inbox, uid: 1)], accountId: account)
        #expect(try temp.store.deleteAccount(named: "gone"))
        // Out of the index file when deleteAccount returns (`mailfs forget` exits then),
        // without waiting for the index's queue.
        #expect(try temp.store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM search.emailSearch_docsize")
        } == 0)
        #expect(try temp.store.accounts().isEmpty)
        #expect(try temp.store.tree.message(id: 1) == nil)
        #expect(try temp.store.indexedCount("bye") == 0)
    }

    @Test("a message stored whole keeps its texts only in its bytes; one synced without them keeps them in its row")
    func textsStoredOnce() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let partial = PartialContent(header: Fixture.message(id: "big@x", subject: "Board meeting", body: ""),
                                     bodyPlain: "The agenda is attached.", bodyHTML: "<p>The agenda</p>",
                                     attachments: [], size: 50_000)
        _ = try temp.store.sync.ingest([
            temp.incoming(Fixture.message(id: "whole@x", subject: "Budget", body: "Quarterly numbers"),
                          folder: inbox, uid: 1),
            IncomingMessage(content: .partial(partial), folderId: inbox, uid: 2, flags: MessageFlags(), arrival: Date()),
        ], accountId: account)
        let rows = try temp.store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT messageId, bodyPlain, bodyHTML, snippet FROM email ORDER BY id")
        }
        #expect(rows.map { $0["messageId"] as String? } == ["whole@x", "big@x"])
        #expect(rows[0]["bodyPlain"] as String? == nil && rows[0]["bodyHTML"] as String? == nil)
        #expect((rows[0]["snippet"] as String).contains("Quarterly numbers"))
        #expect(rows[1]["bodyPlain"] as String? == "The agenda is attached.")
        #expect(rows[1]["bodyHTML"] as String? == "<p>The agenda</p>")
        // The first one's texts are where a reader finds them: its bytes.
        let id = try #require(try temp.store.tree.messages(inFolder: inbox).first { $0.fileName.contains("Budget") }?.id)
        let raw = try #require(try temp.store.tree.rawMessage(emailId: id))
        #expect(MessageParser.parse(raw).bodyPlain?.contains("Quarterly numbers") == true)
    }

    @Test("a message's row as the writer inserts it reads back equal to the record it came from, every column set")
    func rowInsertion() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let sent = Date(timeIntervalSince1970: 1_795_000_000.123)
        let record = EmailRecord(
            id: nil, accountId: account, threadId: nil, fingerprint: "f1", messageId: "<a@x>",
            inReplyTo: "<p@x>", references: "<r@x> <p@x>", fromAddress: "a@x", fromName: "Ann",
            toAddresses: "b@x", ccAddresses: "c@x", bccAddresses: "d@x", subject: "Subject",
            dateSent: sent, dateReceived: sent.addingTimeInterval(60), isRead: true, isStarred: true,
            isDraft: true, isAnswered: true, isDeleted: true, sizeBytes: 1234, bodyPlain: "plain",
            bodyHTML: "<p>html</p>", snippet: "snippet", hasAttachments: true, fileName: "name.eml")
        // A column added to the record but not to the insertion would be left at its default.
        let encoded = Set(try record.databaseDictionary.keys)
        #expect(encoded == Set(EmailInsertion.columns + ["id", "accountId", "fileName"]))

        let id = try temp.store.pool.write { db in
            try EmailInsertion(record).insert(accountId: account, fileName: "name.eml", db: db)
        }
        let stored = try temp.store.pool.read { db in try EmailRecord.fetchOne(db, key: id) }
        var expected = record
        expected.id = id
        #expect(stored.map { $0.databaseEquals(expected) } == true)
    }
}
