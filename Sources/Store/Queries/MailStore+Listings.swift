import Foundation
import GRDB

/// Read-only queries that the mounted tree answers from. All are local and fast.
extension MailStore {
    public func messages(inFolder folderId: Int64) throws -> [MessageEntry] {
        try pool.read { db in
            try MessageEntry.fetchAll(db, sql: """
                SELECT \(MessageEntry.columns) FROM emailFolder f JOIN email e ON e.id = f.emailId
                WHERE f.folderId = ? AND \(MessageEntry.visible) \(MessageEntry.order)
                """, arguments: [folderId])
        }
    }

    public func messages(inThread threadId: Int64) throws -> [MessageEntry] {
        try pool.read { db in
            try MessageEntry.fetchAll(db, sql: """
                SELECT \(MessageEntry.columns) FROM email e WHERE e.threadId = ? AND e.isDeleted = 0 \(MessageEntry.order)
                """, arguments: [threadId])
        }
    }

    /// FR-SYNC-10: messages with no remaining synced-folder association that were not
    /// deleted or trashed (Gmail's archive), and those of an \Archive folder (elsewhere).
    public func archivedMessages(accountId: Int64) throws -> [MessageEntry] {
        try pool.read { db in
            try MessageEntry.fetchAll(db, sql: """
                SELECT \(MessageEntry.columns) FROM email e
                WHERE e.accountId = ? AND e.isDeleted = 0
                  AND (NOT EXISTS (SELECT 1 FROM emailFolder f WHERE f.emailId = e.id AND \(MessageEntry.visible))
                       OR EXISTS (SELECT 1 FROM emailFolder f JOIN folder d ON d.id = f.folderId
                                  WHERE f.emailId = e.id AND d.type = 'archive' AND \(MessageEntry.visible)))
                \(MessageEntry.order)
                """, arguments: [accountId])
        }
    }

    public func messagesWithAttachments(accountId: Int64) throws -> [MessageEntry] {
        try pool.read { db in
            try MessageEntry.fetchAll(db, sql: """
                SELECT \(MessageEntry.columns) FROM email e
                WHERE e.accountId = ? AND e.hasAttachments = 1 AND e.isDeleted = 0 \(MessageEntry.order)
                """, arguments: [accountId])
        }
    }

    /// Every account's INBOX messages, for the unified inbox at the mount root.
    public func inboxMessages() throws -> [MessageEntry] {
        try pool.read { db in
            try MessageEntry.fetchAll(db, sql: """
                SELECT \(MessageEntry.columns) FROM folder d
                JOIN emailFolder f ON f.folderId = d.id JOIN email e ON e.id = f.emailId
                WHERE d.type = 'inbox' AND \(MessageEntry.visible) \(MessageEntry.order)
                """)
        }
    }

    public func message(id: Int64) throws -> MessageEntry? {
        try pool.read { db in
            try MessageEntry.fetchOne(db, sql: "SELECT \(MessageEntry.columns) FROM email e WHERE e.id = ?",
                                      arguments: [id])
        }
    }

    public func threads(accountId: Int64) throws -> [ThreadEntry] {
        try pool.read { db in
            try ThreadEntry.fetchAll(db, sql: """
                SELECT id, accountId, dirName, latestDate, messageCount FROM thread
                WHERE accountId = ? ORDER BY latestDate, id
                """, arguments: [accountId])
        }
    }

    public func thread(id: Int64) throws -> ThreadEntry? {
        try pool.read { db in
            try ThreadEntry.fetchOne(db, sql: """
                SELECT id, accountId, dirName, latestDate, messageCount FROM thread WHERE id = ?
                """, arguments: [id])
        }
    }

    public func folder(id: Int64) throws -> FolderRecord? {
        try pool.read { db in try FolderRecord.fetchOne(db, key: id) }
    }

    public func attachments(ofEmail emailId: Int64) throws -> [AttachmentRecord] {
        try pool.read { db in
            try AttachmentRecord.filter(Column("emailId") == emailId).order(Column("id")).fetchAll(db)
        }
    }

    public func attachment(id: Int64) throws -> AttachmentRecord? {
        try pool.read { db in try AttachmentRecord.fetchOne(db, key: id) }
    }

    /// The raw RFC 5322 bytes of a message, when the store holds them.
    public func rawMessage(emailId: Int64) throws -> [UInt8]? {
        try pool.read { db in
            try Data.fetchOne(db, sql: "SELECT raw FROM messageContent WHERE emailId = ?",
                              arguments: [emailId]).map { [UInt8]($0) }
        }
    }

    /// Whether the store holds the message's raw bytes (small messages, imports), without
    /// reading them.
    public func hasRawMessage(emailId: Int64) throws -> Bool {
        try pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM messageContent WHERE emailId = ?)",
                              arguments: [emailId]) ?? false
        }
    }

    public func folderStatus(accountId: Int64) throws -> [FolderStatusRow] {
        try pool.read { db in
            try FolderStatusRow.fetchAll(db, sql: """
                SELECT d.path, d.type, d.uidValidity, d.lastSyncDate,
                       COUNT(e.id) AS messages, COALESCE(SUM(e.isRead = 0), 0) AS unread
                FROM folder d LEFT JOIN emailFolder f ON f.folderId = d.id AND \(MessageEntry.visible)
                LEFT JOIN email e ON e.id = f.emailId
                WHERE d.accountId = ? AND d.isSelectable = 1 AND d.localState IS NOT 'deleting'
                GROUP BY d.id ORDER BY d.path
                """, arguments: [accountId])
        }
    }
}
