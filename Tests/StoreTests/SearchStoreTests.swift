import Foundation
import GRDB
import MailCore
import TestSupport
import Testing
@testable import Store

/// Searches run against a small store of two accounts: each prefix and operator selects
/// the right messages, user text never reaches SQL or FTS5 as syntax, and the index built
/// from an older store answers the new fields.
@Suite("Searching the store")
struct SearchStoreTests {
    /// Tuesday 2026-11-24 06:41:22 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_502_482)
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }

    final class Mail {
        let temp: TemporaryStore
        let work: Int64
        let home: Int64

        init() throws {
            temp = try TemporaryStore()
            work = try temp.account("work")
            home = try temp.account("home")
            let inbox = try temp.folder(work, "inbox", type: .inbox)
            let budget = try temp.folder(work, "Projects/Budget")
            let homeInbox = try temp.folder(home, "inbox", type: .inbox)
            try add([
                (Fixture.message(id: "m1@x", subject: "Budget plans", date: "Mon, 23 Nov 2026 10:00:00 +0000",
                                 body: "The budgets are ready.\n"), inbox, MessageFlags()),
                (Fixture.message(id: "m2@x", subject: "Re: Budget plans", from: "Bob <bob@example.org>",
                                 date: "Sun, 22 Nov 2026 10:00:00 +0000", inReplyTo: "m1@x", references: ["m1@x"],
                                 body: "Running the numbers now.\n", extraHeaders: ["Cc: Carol <carol@example.net>"]),
                 inbox, MessageFlags(seen: true, flagged: true)),
                (Self.withAttachment(id: "m3@x", subject: "Lunch", disposition: "attachment", name: "Q3 report.pdf"),
                 budget, MessageFlags(seen: true)),
            ], accountId: work)
            try add([
                (Self.withAttachment(id: "m4@x", subject: "Quarterly report", disposition: "inline", name: "logo.png",
                                     type: "image/png"), homeInbox, MessageFlags()),
            ], accountId: home)
        }

        private func add(_ messages: [([UInt8], Int64, MessageFlags)], accountId: Int64) throws {
            let incoming = messages.enumerated().map { index, message in
                IncomingMessage(raw: message.0, folderId: message.1, uid: Int64(index + 1), flags: message.2,
                                arrival: SearchStoreTests.now)
            }
            _ = try temp.store.sync.ingest(incoming, accountId: accountId)
            _ = try temp.store.sync.rethread(accountId: accountId)
        }

        static func withAttachment(id: String, subject: String, disposition: String, name: String,
                                   type: String = "application/pdf") -> [UInt8] {
            let body = """
                --b1\r
                Content-Type: text/plain\r
                \r
                See the quarterly report attached.\r
                --b1\r
                Content-Type: \(type); name="\(name)"\r
                Content-Disposition: \(disposition); filename="\(name)"\r
                Content-Transfer-Encoding: base64\r
                \r
                SGVsbG8=\r
                --b1--\r

                """
            return Fixture.message(id: id, subject: subject, from: "Carol <carol@example.net>",
                                   date: "Mon, 05 Oct 2026 09:00:00 +0000", body: body,
                                   extraHeaders: ["MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=b1"])
        }

        /// The Message-IDs `query` finds in `scope`.
        func ids(_ query: String, in scope: SearchScope? = nil) throws -> Set<String> {
            let found = try temp.store.tree.messages(matching: SearchParser.parse(query), in: scope ?? .account(work),
                                                now: SearchStoreTests.now, calendar: SearchStoreTests.utc)
            let details = try temp.store.tree.searchDetails(emailIds: found.map(\.id))
            return Set(found.compactMap { details[$0.id]?.messageId })
        }
    }

    @Test("each prefix and operator selects its messages", arguments: [
        ("budget", ["m1@x", "m2@x"]),
        ("budgets", ["m1@x", "m2@x"]),
        ("run", ["m2@x"]),
        ("\"budget plans\"", ["m1@x", "m2@x"]),
        ("\"plans budget\"", []),
        ("budg*", ["m1@x", "m2@x"]),
        ("*", ["m1@x", "m2@x", "m3@x"]),
        ("from:alice", ["m1@x"]),
        ("from:alice@example.org", ["m1@x"]),
        ("from:\"alice smith\"", ["m1@x"]),
        ("from:ali", []),
        ("from:ali*", ["m1@x"]),
        ("to:carol", ["m2@x"]),
        ("to:bob", ["m1@x", "m2@x", "m3@x"]),
        ("carol", ["m2@x", "m3@x"]),
        ("subject:budget", ["m1@x", "m2@x"]),
        ("subject:lunch subject:budget", ["m1@x", "m2@x", "m3@x"]),
        ("body:numbers", ["m2@x"]),
        ("body:budget", ["m1@x"]),
        ("attachment:report", ["m3@x"]),
        ("attachment:report.pdf", ["m3@x"]),
        ("report", ["m3@x"]),
        ("mimetype:application/pdf", ["m3@x"]),
        ("mimetype:pdf", ["m3@x"]),
        ("mimetype:multipart/mixed", ["m3@x"]),
        ("mimetype:text/plain", ["m1@x", "m2@x", "m3@x"]),
        ("id:m2@x", ["m2@x"]),
        ("id:<m2@x> id:m3@x", ["m2@x", "m3@x"]),
        ("folder:inbox", ["m1@x", "m2@x"]),
        ("folder:INBOX", ["m1@x", "m2@x"]),
        ("folder:Projects/Budget", ["m3@x"]),
        ("folder:Projects.Budget", ["m3@x"]),
        ("folder:Projects", []),
        ("tag:unread", ["m1@x"]),
        ("is:flagged", ["m2@x"]),
        ("tag:attachment", ["m3@x"]),
        ("tag:unread tag:flagged", ["m1@x", "m2@x"]),
        ("tag:unread AND tag:flagged", []),
        ("date:today", []),
        ("date:yesterday", ["m1@x"]),
        ("date:2d..yesterday", ["m1@x", "m2@x"]),
        ("date:2026-10", ["m3@x"]),
        ("date:..2026-10-05", ["m3@x"]),
        ("date:2026-10-06..", ["m1@x", "m2@x"]),
        ("date:1M..", ["m1@x", "m2@x", "m3@x"]),
        ("budget -tag:flagged", ["m1@x"]),
        ("budget NOT running", ["m1@x"]),
        ("NOT budget", ["m3@x"]),
        ("-budget", ["m3@x"]),
        ("lunch OR from:bob", ["m2@x", "m3@x"]),
        ("(lunch OR budget) tag:unread", ["m1@x"]),
        ("NOT (budget OR lunch)", []),
        ("budget OR NOT tag:unread", ["m1@x", "m2@x", "m3@x"]),
    ])
    func selects(query: String, expected: [String]) throws {
        let mail = try Mail()
        #expect(try mail.ids(query) == Set(expected), "\(query)")
    }

    @Test("a thread's directory name finds its messages")
    func thread() throws {
        let mail = try Mail()
        let thread = try #require(try mail.temp.store.tree.threads(accountId: mail.work).first { $0.messageCount == 2 })
        #expect(try mail.ids("thread:\"\(thread.dirName)\"") == ["m1@x", "m2@x"])
    }

    @Test("the root's scope covers every account, an account's only its own")
    func scopes() throws {
        let mail = try Mail()
        #expect(try mail.ids("report") == ["m3@x"])
        #expect(try mail.ids("report", in: .everyAccount) == ["m3@x", "m4@x"])
        #expect(try mail.ids("report", in: .account(mail.home)) == ["m4@x"])
        #expect(try mail.ids("tag:attachment", in: .account(mail.home)) == [], "an inline image is not an attachment")
        #expect(try mail.ids("mimetype:image/png", in: .everyAccount) == ["m4@x"])
    }

    @Test("results are oldest first and a limit keeps the oldest")
    func order() throws {
        let mail = try Mail()
        let all = try mail.temp.store.tree.messages(matching: .everything, in: .everyAccount)
        #expect(all.map(\.date) == all.map(\.date).sorted())
        let two = try mail.temp.store.tree.messages(matching: .everything, in: .everyAccount, limit: 2)
        #expect(two == Array(all.prefix(2)))
    }

    @Test("a deleted message is found no more")
    func deleted() throws {
        let mail = try Mail()
        try mail.temp.store.pool.write { db in try db.execute(sql: "UPDATE email SET isDeleted = 1 WHERE messageId = 'm1@x'") }
        #expect(try mail.ids("budget") == ["m2@x"])
    }

    @Test("query text is never SQL or FTS5 syntax", arguments: [
        #"subject:"a OR b""#, #""NEAR(budget plans)""#, "^budget", #"{subject}:budget"#, "subject:budget:plans",
        "'; DROP TABLE email; --", #""budget"" OR ""lunch""#, "budget*)", "folder:'inbox'", "id:\"x' OR '1'='1\"",
        "thread:\"a\\\" OR 1\"", "body:-budget", "from:(", "AND*", "NEAR/2", "col:budget", "rank:1",
    ])
    func hostileText(query: String) throws {
        let mail = try Mail()
        guard let parsed = try? SearchParser.parse(query) else { return }
        _ = try mail.temp.store.tree.messages(matching: parsed, in: .everyAccount)
        #expect(try mail.temp.store.tree.messages(matching: .everything, in: .everyAccount).count == 4)
    }

    @Test("every query the parser accepts runs (seeded random queries)")
    func randomQueriesRun() throws {
        let mail = try Mail()
        var generator = SeededGenerator(state: 0x5175_6572_79)
        var ran = 0
        for _ in 0..<2_000 {
            guard let parsed = try? SearchParser.parse(Self.randomQuery(using: &generator)) else { continue }
            _ = try mail.temp.store.tree.messages(matching: parsed, in: .everyAccount, now: Self.now)
            ran += 1
        }
        #expect(ran > 500)
    }

    @Test("text terms side by side are one full-text lookup")
    func oneLookup() throws {
        let compiler = SearchCompiler(now: Self.now, calendar: Self.utc)
        let merged = compiler.condition(try SearchParser.parse("from:alice budget -lunch tag:unread"))
        #expect(merged.sql.components(separatedBy: "MATCH").count == 2, "\(merged.sql)")
        let apart = compiler.condition(try SearchParser.parse("NOT budget tag:unread"))
        #expect(apart.sql.components(separatedBy: "MATCH").count == 2, "\(apart.sql)")
    }

    /// Pieces of queries, so random ones are mostly accepted and reach SQL.
    static let pieces = [
        "budget", "from:alice", "to:carol", "subject:\"budget plans\"", "tag:unread", "is:flagged", "has:attachment",
        "id:m1@x", "folder:inbox", "folder:Projects.Budget", "thread:x", "date:7d..", "date:2026-10", "attachment:pdf",
        "mimetype:text/plain", "budg*", "*", "OR", "AND", "NOT", "-", "(", ")", "\"", "'", "^", "{", "NEAR", "é", "☕",
    ]

    static func randomQuery(using generator: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...8, using: &generator)).map { _ in
            pieces.randomElement(using: &generator) ?? ""
        }.joined(separator: Bool.random(using: &generator) ? " " : "")
    }
}

@Suite("The search index of a store made before per-field search")
struct SearchIndexMigrationTests {
    @Test("is rebuilt with sender, recipients, attachment names and types from the stored rows")
    func rebuildsOldIndex() throws {
        let directory = try Fixture.legacyStore("old-index", upTo: "v3-retention-index") { db in
            try db.execute(sql: """
                INSERT INTO account (id, name, address, isOffline, createdAt) VALUES (1, 'old', 'me@example.org', 1, '2026-01-01');
                INSERT INTO folder (id, accountId, path, imapPath, type) VALUES (1, 1, 'inbox', 'inbox', 'inbox');
                INSERT INTO email (id, accountId, dedupKey, messageId, inReplyTo, "references", fromAddress, fromName,
                    toAddresses, ccAddresses, bccAddresses, subject, dateSent, dateReceived, isRead, isStarred, isDraft,
                    isAnswered, sizeBytes, bodyPlain, snippet, hasAttachments, fileName)
                VALUES (1, 1, '<old@x>', 'old@x', '', '', 'alice@example.org', 'Alice Smith', 'Bob <bob@example.org>',
                    'carol@example.net', '', 'Budget plans', '2026-11-20 10:00:00.000', '2026-11-20 10:00:00.000',
                    0, 0, 0, 0, 100, 'The budgets are ready.', 'The budgets', 1, 'old.eml');
                INSERT INTO emailFolder (emailId, folderId, imapUID) VALUES (1, 1, 1);
                INSERT INTO attachment (emailId, partId, fileName, mimeType, sizeBytes, encoding, isInline, isDownloaded)
                VALUES (1, '2', 'Q3 report.pdf', 'application/pdf', 5, 'base64', 0, 1);
                INSERT INTO emailSearch (rowid, subject, addresses, body)
                VALUES (1, 'Budget plans', 'Alice Smith <alice@example.org>, Bob <bob@example.org>', 'The budgets are ready.');
                """)
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try MailStore(directory: directory)
        for query in ["from:alice", "to:carol", "budget", "body:ready", "attachment:report", "mimetype:pdf",
                      "mimetype:text/plain"] {
            #expect(try store.tree.messages(matching: SearchParser.parse(query), in: .everyAccount).map(\.id) == [1], "\(query)")
        }
        #expect(try store.tree.messages(matching: SearchParser.parse("from:bob"), in: .everyAccount).isEmpty)
        // The rows moved to the index's own file.
        #expect(try store.pool.read { db in try db.tableExists("emailSearch", in: "main") } == false)
    }
}
