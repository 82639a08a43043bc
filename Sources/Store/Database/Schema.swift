import Foundation
import GRDB

/// Versioned migrations of the store. Never edit a shipped migration: add one.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-core", migrate: createCore)
        migrator.registerMigration("v1-search", migrate: createSearchIndex)
        migrator.registerMigration("v1-outbox", migrate: createSendQueue)
        migrator.registerMigration("v2-content-cache", migrate: createContentCache)
        migrator.registerMigration("v3-journal", migrate: createJournal)
        ReadPathIndexes.register(in: &migrator)
        migrator.registerMigration("v3-retention-index", migrate: createRetentionIndex)
        migrator.registerMigration("v4-message-identity", migrate: MessageIdentityMigration.migrate)
        SearchIndex.register(in: &migrator)
        migrator.registerMigration("v4-message-id-index", migrate: createMessageIdIndex)
        FolderCounts.register(in: &migrator)
        AccountStorage.register(in: &migrator)
        migrator.registerMigration("v5-redundant-indexes", migrate: dropRedundantIndexes)
        migrator.registerMigration("v6-folder-settled", migrate: addSettledState)
        SearchIndex.registerOwnFile(in: &migrator)
        PackedContent.register(in: &migrator)
        ReadPathIndexes.registerLinkIndexes(in: &migrator)
        MultiFolderEmails.register(in: &migrator)
        ThreadLinks.register(in: &migrator)
        ListingVersions.register(in: &migrator)
        migrator.registerMigration("v12-journal-done-index", migrate: createDoneChangesIndex)
        migrator.registerMigration("v13-send-delivered-to", migrate: addDeliveredTo)
        ConversationVersions.register(in: &migrator)
        return migrator
    }

    /// Migrates the store. A store from before the full-text index had its own file gets
    /// its index rows copied there before the migration that drops them runs.
    static func migrate(_ pool: DatabasePool, searchIndex: URL) throws {
        let migrator = migrator
        let applied = try pool.writeWithoutTransaction { db in try migrator.appliedIdentifiers(db) }
        if !applied.contains(SearchIndex.ownFile) {
            try migrator.migrate(pool, upTo: SearchIndex.lastInStore)
            try SearchIndex.moveOutOfStore(pool, to: searchIndex)
        }
        try migrator.migrate(pool)
    }

    private static func createCore(_ db: Database) throws {
        try db.create(table: "account") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull().unique()
            t.column("address", .text).notNull().defaults(to: "")
            // An offline account has no server: it is filled by `mailfs import`.
            t.column("isOffline", .boolean).notNull().defaults(to: true)
            t.column("lastSyncDate", .datetime)
            t.column("createdAt", .datetime).notNull()
        }
        try db.create(table: "folder") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("account", onDelete: .cascade).notNull()
            // Path in the mounted tree ("inbox", "Projects/Budget"): decoded, hierarchy as "/".
            t.column("path", .text).notNull()
            // Name on the server (raw, modified UTF-7) or the imported source's name.
            t.column("imapPath", .text).notNull()
            t.column("type", .text).notNull()
            // False for hierarchy-only parents (\Noselect, or implied by a child's path).
            t.column("isSelectable", .boolean).notNull().defaults(to: true)
            t.column("uidValidity", .integer)
            t.column("uidNext", .integer)
            t.column("lastSyncedUID", .integer).notNull().defaults(to: 0)
            t.column("highestModSeq", .integer)
            t.column("lastSyncDate", .datetime)
            t.uniqueKey(["accountId", "imapPath"])
            t.uniqueKey(["accountId", "path"])
        }
        try db.create(table: "thread") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("account", onDelete: .cascade).notNull()
            // Assigned once from the root message; stable as replies arrive.
            t.column("dirName", .text).notNull()
            t.column("subject", .text).notNull()
            t.column("latestDate", .datetime).notNull()
            t.column("messageCount", .integer).notNull()
            t.column("unreadCount", .integer).notNull()
            t.column("participants", .text).notNull()
            t.column("snippet", .text).notNull()
            t.uniqueKey(["accountId", "dirName"])
        }
        try db.create(table: "email") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("account", onDelete: .cascade).notNull()
            t.belongsTo("thread", onDelete: .setNull)
            // "<Message-ID>", or a digest when the message has none. Replaced by
            // `fingerprint`, not unique, in v4-message-identity.
            t.column("dedupKey", .text).notNull()
            t.column("messageId", .text)
            t.column("inReplyTo", .text).notNull()
            t.column("references", .text).notNull()
            t.column("fromAddress", .text).notNull()
            t.column("fromName", .text).notNull()
            t.column("toAddresses", .text).notNull()
            t.column("ccAddresses", .text).notNull()
            t.column("bccAddresses", .text).notNull()
            t.column("subject", .text).notNull()
            t.column("dateSent", .datetime)
            t.column("dateReceived", .datetime).notNull()
            t.column("isRead", .boolean).notNull()
            t.column("isStarred", .boolean).notNull()
            t.column("isDraft", .boolean).notNull()
            t.column("isAnswered", .boolean).notNull()
            // Deleted or trashed by the user: excluded from archive/ (FR-SYNC-10).
            t.column("isDeleted", .boolean).notNull().defaults(to: false)
            t.column("sizeBytes", .integer).notNull()
            t.column("bodyPlain", .text)
            t.column("bodyHTML", .text)
            t.column("snippet", .text).notNull()
            t.column("hasAttachments", .boolean).notNull()
            // Assigned once at insert; unique in the account; the same in every directory.
            t.column("fileName", .text).notNull()
            t.uniqueKey(["accountId", "fileName"])
            t.uniqueKey(["accountId", "dedupKey"])
        }
        try db.create(index: "email_on_thread", on: "email", columns: ["threadId"])
        try db.create(table: "emailFolder") { t in
            t.belongsTo("email", onDelete: .cascade).notNull()
            t.belongsTo("folder", onDelete: .cascade).notNull()
            t.column("imapUID", .integer).notNull()
            t.primaryKey(["folderId", "imapUID"])
            t.uniqueKey(["emailId", "folderId"])
        }
        // Raw RFC 5322 bytes, kept apart from `email` so listings never page through blobs.
        try db.create(table: "messageContent") { t in
            t.primaryKey("emailId", .integer).references("email", onDelete: .cascade)
            t.column("raw", .blob).notNull()
        }
        try db.create(table: "attachment") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("email", onDelete: .cascade).notNull()
            t.column("partId", .text).notNull()
            // Sanitized, unique within the message: the name under attachments/<message>/.
            t.column("fileName", .text).notNull()
            t.column("mimeType", .text).notNull()
            t.column("sizeBytes", .integer).notNull()
            t.column("encoding", .text).notNull()
            t.column("isInline", .boolean).notNull()
            t.column("contentId", .text)
            t.column("isDownloaded", .boolean).notNull()
            t.column("cachePath", .text)
            t.column("lastAccess", .datetime)
            t.uniqueKey(["emailId", "fileName"])
        }
    }

    private static func createSearchIndex(_ db: Database) throws {
        // rowid = email.id. Standalone (not external-content) so deletes are explicit and simple.
        try db.create(virtualTable: "emailSearch", using: FTS5()) { t in
            t.tokenizer = .unicode61()
            t.column("subject")
            t.column("addresses")
            t.column("body")
        }
    }

    private static func createSendQueue(_ db: Database) throws {
        try db.create(table: "sendQueue") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("account", onDelete: .cascade).notNull()
            t.column("fileName", .text).notNull()
            t.column("state", .text).notNull()          // queued | sending | failed | accepted
            t.column("raw", .blob).notNull()
            t.column("envelopeFrom", .text).notNull()
            t.column("envelopeTo", .text).notNull()
            t.column("createdAt", .datetime).notNull()
            t.column("notBefore", .datetime).notNull()  // undo delay and retry backoff
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("lastError", .text)
            t.column("acceptedAt", .datetime)
            t.uniqueKey(["accountId", "fileName"])
        }
    }

    /// Content downloaded on first read (FR-SYNC-08): one row per cached file, for LRU
    /// eviction per account. Attachments also mirror it in `isDownloaded`/`cachePath`.
    /// `sizeIsExact`: an attachment's size from BODYSTRUCTURE is an estimate until the
    /// part has been downloaded once; it stays exact after eviction.
    private static func createContentCache(_ db: Database) throws {
        try db.create(table: "cachedContent") { t in
            t.belongsTo("account", onDelete: .cascade).notNull()
            t.belongsTo("email", onDelete: .cascade).notNull()
            // "" for the whole message, else the IMAP section of the part ("2", "1.3").
            t.column("partId", .text).notNull()
            // Relative to the account's cache directory; built from ids only.
            t.column("fileName", .text).notNull()
            t.column("sizeBytes", .integer).notNull()
            t.column("lastAccess", .datetime).notNull()
            t.primaryKey(["emailId", "partId"])
        }
        try db.create(index: "cachedContent_lru", on: "cachedContent", columns: ["accountId", "lastAccess"])
        try db.alter(table: "attachment") { t in
            t.add(column: "sizeIsExact", .boolean).notNull().defaults(to: true)
        }
        try db.execute(sql: "UPDATE attachment SET sizeIsExact = isDownloaded")
    }

    /// The journal of local changes (docs/ARCHITECTURE.md, "tree -> journal -> server"):
    /// one row per IMAP effect, committed before the file operation returns. Rows of one
    /// user operation share `operation` (the first row's id). Associations and folders in
    /// flux carry a mark so listings and the sync engine know about them.
    private static func createJournal(_ db: Database) throws {
        try db.create(table: "change") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("account", onDelete: .cascade).notNull()
            t.column("operation", .integer).notNull().defaults(to: 0)
            t.column("kind", .text).notNull()
            t.column("state", .text).notNull()
            // One per removed message (rm), for the mass-deletion guard.
            t.column("isDeletion", .boolean).notNull().defaults(to: false)
            t.column("emailId", .integer).references("email", onDelete: .setNull)
            t.column("messageId", .text)
            // Where the message is on the server (source) and where it goes (target).
            t.column("folderId", .integer).references("folder", onDelete: .setNull)
            t.column("uid", .integer)
            // The source folder's UIDVALIDITY when `uid` was taken: a UID means nothing under another.
            t.column("uidValidity", .integer)
            t.column("targetFolderId", .integer).references("folder", onDelete: .setNull)
            // The negative UID of the target association until the server's UID is known.
            t.column("placeholderUID", .integer)
            t.column("flag", .text)
            t.column("value", .boolean)
            t.column("previousValue", .boolean)
            t.column("raw", .blob)
            // Folder operations: the tree paths before and after.
            t.column("oldPath", .text)
            t.column("newPath", .text)
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("notBefore", .datetime).notNull()
            t.column("lastError", .text)
            t.column("createdAt", .datetime).notNull()
            // Claimed by an applier that did not finish (found at start-up): verify first.
            t.column("interrupted", .boolean).notNull().defaults(to: false)
        }
        try db.create(index: "change_on_account", on: "change", columns: ["accountId", "state", "id"])
        try db.create(index: "change_on_email", on: "change", columns: ["emailId"])
        // The guard counts an account's deletions of the last 60 s at every rm.
        try db.create(index: "change_deletions", on: "change", columns: ["accountId", "isDeletion", "createdAt"])
        try db.alter(table: "emailFolder") { t in
            // NULL, "leaving" (hidden: a move or deletion not yet applied) or "arriving"
            // (a placeholder association with a negative UID until the server's is known).
            t.add(column: "pending", .text)
        }
        try db.alter(table: "folder") { t in
            // NULL, "creating", "renaming" or "deleting": the sync leaves such folders alone.
            t.add(column: "localState", .text)
        }
    }

    /// Retention (every full sync) and the mount's start-up notice look for an account's
    /// messages that arrived before a date: from this index, not the wide message rows.
    private static func createRetentionIndex(_ db: Database) throws {
        try db.create(index: "email_arrival", on: "email", columns: ["accountId", "dateReceived", "isStarred"])
    }

    /// What a folder's last complete sync saw: the server's message count (EXISTS), the
    /// start of the sync window it asked for, and the folder's own count of messages then.
    /// NULL until a sync of the folder completes, and again after one that did not
    /// (`SyncStore.saveCheckpoint`).
    private static func addSettledState(_ db: Database) throws {
        try db.alter(table: "folder") { t in
            t.add(column: "settledMessages", .integer)
            t.add(column: "settledSince", .datetime)
            t.add(column: "settledLinks", .integer)
        }
    }

    /// Two indexes every stored message paid for and no query needed: `email_on_thread`
    /// repeats `email_on_threadId`, and every lookup by account alone (including the
    /// foreign key's on account deletion) can use the other indexes that start with it.
    private static func dropRedundantIndexes(_ db: Database) throws {
        try db.execute(sql: "DROP INDEX IF EXISTS email_on_thread; DROP INDEX IF EXISTS email_on_accountId")
    }

    /// Every `rm` and `mv` prunes the account's done journal rows older than two minutes
    /// (`MailStore.pruneDone`). Through `change_on_account` that visited every done row of
    /// the window, so an `rm` of thousands of files grew slower with each file; this index
    /// holds the done rows alone, by time, and the prune finds the old ones at once.
    private static func createDoneChangesIndex(_ db: Database) throws {
        try db.execute(sql: "CREATE INDEX change_done ON change (accountId, createdAt) WHERE state = 'done'")
    }

    /// The recipients a message already went to, so that a server taking fewer recipients
    /// per transaction, or a crash between transactions, never sends it to one twice.
    private static func addDeliveredTo(_ db: Database) throws {
        try db.alter(table: "sendQueue") { t in
            t.add(column: "deliveredTo", .text).notNull().defaults(to: "")
        }
    }

    /// `id:` searches, and the journal's and the sync's lookups by Message-ID, now that
    /// the v1 unique key on it is gone (v4-message-identity).
    private static func createMessageIdIndex(_ db: Database) throws {
        try db.create(index: "email_message_id", on: "email", columns: ["accountId", "messageId"])
    }
}
