import Foundation
import GRDB

/// The full-text index's history in the store. Until v7 the index was the store's table
/// `emailSearch`; it now has a file of its own (`SearchIndexFile`), and the store keeps only
/// `searchRemoval`, the ids of deleted messages the index still has to drop
/// (`SearchIndexWriter`).
///
/// The first index (`Schema.createSearchIndex`) had one column for every address; `from:`
/// and `to:` need their own, so v4 built the table from the old one's text and the message
/// rows, then took the old name.
enum SearchIndex {
    /// The columns of v4's table, which the index file keeps (`SearchEntry.columns`).
    private static let columns = SearchEntry.columns
    /// The last migration with the index in the store, and the one that moves it out.
    static let lastInStore = "v6-folder-settled"
    static let ownFile = "v7-search-own-file"

    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4-search-fields") { db in
            try db.create(virtualTable: "emailSearchFields", using: FTS5()) { t in
                t.tokenizer = .porter(wrapping: .unicode61())
                for column in columns { t.column(column) }
            }
            // Messages indexed before this migration: their part types are known only as far
            // as the store recorded them (attachments and the text bodies).
            try db.execute(sql: """
                INSERT INTO emailSearchFields (rowid, subject, sender, recipients, body, attachments, mimetypes)
                SELECT s.rowid, s.subject, e.fromName || ' ' || e.fromAddress,
                       e.toAddresses || ', ' || e.ccAddresses || ', ' || e.bccAddresses, s.body,
                       (SELECT group_concat(a.fileName, char(10)) FROM attachment a WHERE a.emailId = e.id AND a.isInline = 0),
                       trim(CASE WHEN e.bodyPlain IS NOT NULL THEN 'text/plain ' ELSE '' END
                            || CASE WHEN e.bodyHTML IS NOT NULL THEN 'text/html ' ELSE '' END
                            || COALESCE((SELECT group_concat(a.mimeType, ' ') FROM attachment a WHERE a.emailId = e.id), ''))
                FROM emailSearch s JOIN email e ON e.id = s.rowid
                """)
            try db.drop(table: "emailSearch")
            try db.execute(sql: "ALTER TABLE emailSearchFields RENAME TO emailSearch")
        }
    }

    /// Copies the store's index rows (if it still has its table) into the index file, as
    /// they are: rows a crash left copied twice are replaced.
    static func moveOutOfStore(_ pool: DatabasePool, to url: URL) throws {
        try pool.writeWithoutTransaction { db in
            guard try db.tableExists("emailSearch") else { return }
            let schema = SearchIndexFile.schema
            let list = columns.joined(separator: ", ")
            try db.execute(sql: "ATTACH DATABASE ? AS \(schema)", arguments: [url.path])
            defer { try? db.execute(sql: "DETACH DATABASE \(schema)") }
            try db.execute(sql: """
                INSERT OR REPLACE INTO \(schema).emailSearch (rowid, \(list)) SELECT rowid, \(list) FROM main.emailSearch
                """)
        }
    }

    /// The index leaves the store; deletions of messages are recorded for the index's writer.
    static func registerOwnFile(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration(ownFile) { db in
            try db.drop(table: "emailSearch")
            try db.execute(sql: """
                CREATE TABLE searchRemoval (emailId INTEGER PRIMARY KEY);
                CREATE TRIGGER email_search_removal AFTER DELETE ON email BEGIN
                    INSERT OR IGNORE INTO searchRemoval (emailId) VALUES (old.id);
                END
                """)
        }
    }
}
