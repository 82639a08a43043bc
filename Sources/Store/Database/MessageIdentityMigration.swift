import Foundation
import GRDB
import MailCore

/// v4: messages are the same only when they are the same message (`SameMessage`). Until
/// v3 the store kept one row per Message-ID (`UNIQUE (accountId, dedupKey)`), so a
/// second message sharing a Message-ID was hidden behind the first. The constraint can
/// only go with the table (SQLite cannot drop a table constraint), so `email` is rebuilt
/// the way https://www.sqlite.org/lang_altertable.html §7 describes, keeping every row
/// id (the full-text index, the cache and inode numbers use them), every index and the
/// id sequence; `fingerprint` takes the place of `dedupKey`, not unique, and is filled
/// from the stored bytes of each message that has them. Messages already merged stay
/// merged: the bytes of the hidden one were never stored.
enum MessageIdentityMigration {
    static func migrate(_ db: Database) throws {
        let existing = Set(try db.columns(in: "email").map(\.name))
        // A column some other migration added would be lost by the copy: refuse loudly.
        guard existing == Set(keptColumns + ["dedupKey"]) else {
            throw DatabaseError(message: "v4-message-identity: unexpected email columns \(existing.sorted())")
        }
        let indexes = try String.fetchAll(db, sql: """
            SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'email' AND sql IS NOT NULL
            """).filter { !$0.contains("dedupKey") }
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'email'")
        try db.execute(sql: createTable)
        let columns = keptColumns.map { "\"\($0)\"" }.joined(separator: ", ")
        try db.execute(sql: "INSERT INTO email_new (\(columns)) SELECT \(columns) FROM email")
        try db.execute(sql: "DROP TABLE email")
        try db.execute(sql: "ALTER TABLE email_new RENAME TO email")
        for index in indexes { try db.execute(sql: index) }
        // Ids of deleted messages are never handed out again (AUTOINCREMENT's promise).
        let copied = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'email'")
        try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = 'email'")
        try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('email', ?)",
                       arguments: [max(sequence ?? 0, copied ?? 0)])
        // Imports and the sync look a message up by fingerprint; rows without one (large
        // messages stored before v4) by Message-ID, from an index of those rows only.
        try db.create(index: "email_fingerprint", on: "email", columns: ["accountId", "fingerprint"])
        try db.execute(sql: """
            CREATE INDEX email_unfingerprinted ON email(accountId, messageId) WHERE fingerprint IS NULL
            """)
        try fillFingerprints(db)
    }

    /// Every message stored whole gets the fingerprint of its bytes; the others (large
    /// synced messages) keep none until the sync meets them again (`SameMessage.serverCopy`).
    private static func fillFingerprints(_ db: Database) throws {
        let stored = try Row.fetchCursor(db, sql: "SELECT emailId, raw FROM messageContent")
        while let row = try stored.next() {
            let raw: Data = row["raw"]
            try db.execute(sql: "UPDATE email SET fingerprint = ? WHERE id = ?",
                           arguments: [MessageFingerprint(message: [UInt8](raw)).stored, row["emailId"] as Int64])
        }
    }

    private static let keptColumns = [
        "id", "accountId", "threadId", "messageId", "inReplyTo", "references", "fromAddress", "fromName",
        "toAddresses", "ccAddresses", "bccAddresses", "subject", "dateSent", "dateReceived", "isRead",
        "isStarred", "isDraft", "isAnswered", "isDeleted", "sizeBytes", "bodyPlain", "bodyHTML", "snippet",
        "hasAttachments", "fileName",
    ]

    /// v1-core's `email` (Schema.createCore), without `dedupKey`, with `fingerprint`.
    private static let createTable = """
        CREATE TABLE "email_new" (
            "id" INTEGER PRIMARY KEY AUTOINCREMENT,
            "accountId" INTEGER NOT NULL REFERENCES "account"("id") ON DELETE CASCADE,
            "threadId" INTEGER REFERENCES "thread"("id") ON DELETE SET NULL,
            "messageId" TEXT, "inReplyTo" TEXT NOT NULL, "references" TEXT NOT NULL,
            "fromAddress" TEXT NOT NULL, "fromName" TEXT NOT NULL, "toAddresses" TEXT NOT NULL,
            "ccAddresses" TEXT NOT NULL, "bccAddresses" TEXT NOT NULL, "subject" TEXT NOT NULL,
            "dateSent" DATETIME, "dateReceived" DATETIME NOT NULL,
            "isRead" BOOLEAN NOT NULL, "isStarred" BOOLEAN NOT NULL, "isDraft" BOOLEAN NOT NULL,
            "isAnswered" BOOLEAN NOT NULL, "isDeleted" BOOLEAN NOT NULL DEFAULT 0,
            "sizeBytes" INTEGER NOT NULL, "bodyPlain" TEXT, "bodyHTML" TEXT, "snippet" TEXT NOT NULL,
            "hasAttachments" BOOLEAN NOT NULL, "fileName" TEXT NOT NULL,
            "fingerprint" TEXT,
            UNIQUE ("accountId", "fileName"))
        """
}
