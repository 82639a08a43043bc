import GRDB

/// The full-text index behind `search/` and `mailfs search`: table `emailSearch`, one row
/// per message (rowid = email.id), a column per field a query can name. Porter stemming over
/// unicode61, so `invoice` finds "invoices" as notmuch's stemmer does.
///
/// The first index (`Schema.createSearchIndex`) had one column for every address; `from:`
/// and `to:` need their own, so this migration builds the new table from the old one's text
/// and the message rows, then takes the old name (retention, forget and the storage figures
/// use it).
enum SearchIndex {
    /// subject; sender: From (name and address); recipients: To, Cc, Bcc; body: the text;
    /// attachments: file names of attachments not shown inline; mimetypes: every part's type.
    static let columns = ["subject", "sender", "recipients", "body", "attachments", "mimetypes"]

    /// Registered by `Schema.migrator` after the others.
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

    static let insert = """
        INSERT INTO emailSearch (rowid, subject, sender, recipients, body, attachments, mimetypes)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """
}
