import GRDB

/// Indexes that keep the mount's own reads off the large `email` rows (bodies and snippets
/// live there): a cold start reads `.status` first, whose unread counts would otherwise
/// page through the whole table (~3 s at 20,000 messages with the page cache dropped).
enum ReadPathIndexes {
    /// Registered after `Schema.migrator`'s migrations; GRDB applies whatever a database
    /// has not applied yet, whatever else it holds.
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-read-path-indexes") { db in
            try db.create(index: "email_unread", on: "email", columns: ["accountId", "isRead"])
        }
    }
}
