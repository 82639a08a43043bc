import GRDB

/// Indexes that keep the mount's own reads off the large `email` rows (bodies and snippets
/// live there, so a row is often a page of its own): with the page cache dropped, reading
/// unread counts or listing a large folder through the table read a page per message.
enum ReadPathIndexes {
    /// Every column a listing shows (`MessageEntry`) and filters on: listing queries read
    /// it `INDEXED BY` this name instead of the table.
    static let listing = "email_listing"
    /// The account's messages by read state: the narrowest index that names every message
    /// of an account, which a scan of all of them reads (`archivedMessages`).
    static let unread = "email_unread"

    /// Registered by `Schema.migrator` after the journal's migration.
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-read-path-indexes") { db in
            try db.create(index: unread, on: "email", columns: ["accountId", "isRead"])
            try db.create(index: listing, on: "email", columns: [
                "id", "accountId", "threadId", "fileName", "sizeBytes", "dateSent", "dateReceived",
                "isRead", "isStarred", "isDeleted", "hasAttachments",
            ])
        }
    }

    /// Registered last: a folder's listing reads its links by folder and counts each
    /// message's links (st_nlink), and both need the link's `pending` mark. GRDB's indexes
    /// on `folderId` and `emailId` alone sent every one of those reads on to the table's
    /// row; these carry the columns read, so a listing never touches the table.
    static func registerLinkIndexes(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-covering-link-indexes") { db in
            try db.execute(sql: "DROP INDEX IF EXISTS emailFolder_on_folderId; DROP INDEX IF EXISTS emailFolder_on_emailId")
            try db.create(index: "emailFolder_byFolder", on: "emailFolder", columns: ["folderId", "emailId", "pending"])
            try db.create(index: "emailFolder_byEmail", on: "emailFolder", columns: ["emailId", "pending"])
        }
    }
}
