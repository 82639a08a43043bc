import Foundation
import GRDB
import MailCore

/// The index that lets a rethread regroup only the threads a change reaches
/// (docs/DECISIONS.md, "Rethreading only the threads a change reaches"):
///
/// - `threadLink`: each threaded message's `ThreadLinkKeys`, written by the rethread that
///   gives the message its first thread. Looked up by key, it names the threaded messages
///   a new one can be linked to; a message without a thread is in every rethread's scope
///   anyway.
/// - `thread.isStale`: set when a message of the thread is deleted, and cleared by the
///   rethread that settles the thread again. With the messages that have no thread yet,
///   the stale threads are everything a rethread owes.
///
/// A trigger on `email` does both on every deletion, whatever deletes (an expunge seen by
/// a sync, `rm` in trash/, retention, a purge, an account's removal): it drops the
/// message's keys and marks its thread. Not a foreign key: SQLite checks one on every
/// insert, and looking up each key's message at random in `email` made writing an
/// import's keys much slower.
enum ThreadLinks {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10-thread-links") { db in
            try db.execute(sql: schema)
            try fill(db)
            // Deletions before this version left their threads as they were until the
            // next whole-account pass: every thread whose count is off is owed one now.
            try db.execute(sql: """
                UPDATE thread SET isStale = 1
                WHERE messageCount != (SELECT COUNT(*) FROM email WHERE email.threadId = thread.id)
                """)
        }
    }

    private static let schema = """
        CREATE TABLE threadLink (
            key INTEGER NOT NULL,
            emailId INTEGER NOT NULL,
            PRIMARY KEY (key, emailId)) WITHOUT ROWID;
        CREATE INDEX threadLink_on_email ON threadLink(emailId);
        ALTER TABLE thread ADD COLUMN isStale BOOLEAN NOT NULL DEFAULT 0;
        CREATE INDEX thread_stale ON thread(accountId) WHERE isStale;
        CREATE TRIGGER email_leaves_thread AFTER DELETE ON email
        BEGIN
            DELETE FROM threadLink WHERE emailId = OLD.id;
            UPDATE thread SET isStale = 1 WHERE id = OLD.threadId AND NOT isStale;
        END;
        """

    /// The keys of messages about to get their first thread, gathered one message at a
    /// time and written in key order, the table's own: written with each message as it
    /// was stored, a random key per row dirtied pages all over the table in every batch of
    /// an import, whose commits then wrote most of the table again (docs/DECISIONS.md,
    /// "Rethreading only the threads a change reaches").
    struct Pending {
        private var links: [(key: Int64, emailId: Int64)] = []

        mutating func add(_ message: ThreadingInput) {
            for key in ThreadLinkKeys.keys(of: message) { links.append((key, message.id)) }
        }

        mutating func write(_ db: Database) throws {
            links.sort { ($0.key, $0.emailId) < ($1.key, $1.emailId) }
            let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO threadLink (key, emailId) VALUES (?, ?)")
            for link in links {
                statement.setUncheckedArguments([link.key.databaseValue, link.emailId.databaseValue])
                try statement.execute()
            }
            links = []
        }
    }

    /// The keys of every message stored before this version.
    private static func fill(_ db: Database) throws {
        var pending = Pending()
        let rows = try Row.fetchCursor(db, sql: "SELECT \(ThreadingRow.columns) FROM email")
        while let row = try rows.next() { pending.add(ThreadingRow.input(row)) }
        try pending.write(db)
    }
}
