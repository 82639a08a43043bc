import Foundation
import GRDB

extension TreeStore {
    /// A folder's messages in listing order. A folder of `KeptListings.minimumMessages` or
    /// more is read from the listing kept on disk while its version is the folder's, and
    /// kept anew when it is not.
    public func messages(inFolder folderId: Int64) throws -> [MessageEntry] {
        let pass = store.pack.readers.pass
        let state = try store.treeRead { db in try MailStore.listingState(ofFolder: folderId, db) }
        guard let state, state.messages >= KeptListings.minimumMessages else {
            return try store.treeRead { db in
                try MailStore.messagesFromStore(inFolder: folderId, db, pass: pass, expected: state?.messages ?? 0)
            }
        }
        if let kept = store.keptListings.entries(folderId: folderId, version: state.version, pass: pass) { return kept }
        return try store.keepListing(ofFolder: folderId, pass: pass)
    }

    public func messages(inThread threadId: Int64) throws -> [MessageEntry] {
        try messagesByThread(ids: [threadId])[threadId] ?? []
    }

    /// The messages of the threads `threadIds`, by thread, each thread's in listing order:
    /// one query where a walk over threads/ would otherwise run one per thread (and the one
    /// query of a single thread's listing). Threads with no message left are absent.
    public func messagesByThread(ids threadIds: [Int64]) throws -> [Int64: [MessageEntry]] {
        try store.messagesRead { db, pass in
            let statement = try db.cachedStatement(sql: """
                SELECT \(MessageEntry.columns), t.threadId FROM email t JOIN \(MessageEntry.email) ON e.id = t.id
                \(MessageEntry.joins)
                WHERE t.threadId IN (\(MailStore.idList)) AND e.isDeleted = 0
                ORDER BY t.threadId, COALESCE(e.dateSent, e.dateReceived), e.id
                """)
            var threads: [Int64: [MessageEntry]] = [:]
            let rows = try Row.fetchCursor(statement, arguments: [MailStore.idListArgument(threadIds)])
            while let row = try rows.next() {
                threads[row[MessageEntry.columnCount], default: []].append(MessageEntry(row: row, pass: pass))
            }
            return threads
        }
    }

    /// FR-SYNC-10: messages with no remaining synced-folder association that were not
    /// deleted or trashed (Gmail's archive), and those of an \Archive folder (elsewhere).
    ///
    /// The messages without a folder are found through the account's narrowest index, one
    /// probe of their links each, and those of \Archive folders through those folders,
    /// rather than testing both for every message through the listing index (two probes
    /// a message, even with nothing to show).
    public func archivedMessages(accountId: Int64) throws -> [MessageEntry] {
        try store.messagesRead { db, pass in
            try MessageEntry.fetchListing(db.makeStatement(sql: """
                SELECT \(MessageEntry.columns) FROM \(MessageEntry.email) \(MessageEntry.joins)
                WHERE e.isDeleted = 0 AND e.id IN (
                    SELECT u.id FROM email u INDEXED BY \(ReadPathIndexes.unread) WHERE u.accountId = ?
                      AND NOT EXISTS (SELECT 1 FROM emailFolder f WHERE f.emailId = u.id AND \(MessageEntry.visible))
                    UNION
                    SELECT f.emailId FROM folder d JOIN emailFolder f ON f.folderId = d.id
                    WHERE d.accountId = ? AND d.type = 'archive' AND \(MessageEntry.visible))
                """), arguments: [accountId, accountId], pass: pass)
        }
    }

    public func messagesWithAttachments(accountId: Int64) throws -> [MessageEntry] {
        try store.messagesRead { db, pass in
            try MessageEntry.fetchListing(db.makeStatement(sql: """
                SELECT \(MessageEntry.columns) FROM \(MessageEntry.email) \(MessageEntry.joins)
                WHERE e.accountId = ? AND e.hasAttachments = 1 AND e.isDeleted = 0
                """), arguments: [accountId], pass: pass)
        }
    }

    /// Every account's INBOX messages, for the unified inbox at the mount root.
    public func inboxMessages() throws -> [MessageEntry] {
        try store.messagesRead { db, pass in
            try MessageEntry.fetchListing(db.makeStatement(sql: """
                SELECT \(MessageEntry.columns) FROM folder d
                JOIN emailFolder f ON f.folderId = d.id JOIN \(MessageEntry.email) ON e.id = f.emailId
                \(MessageEntry.joins)
                WHERE d.type = 'inbox' AND \(MessageEntry.visible)
                """), pass: pass)
        }
    }

    public func message(id: Int64) throws -> MessageEntry? {
        try store.messagesRead { db, pass in
            let statement = try db.cachedStatement(sql: """
                SELECT \(MessageEntry.columns) FROM \(MessageEntry.email) \(MessageEntry.joins) WHERE e.id = ?
                """)
            return try MessageEntry.fetchOne(statement, arguments: [id], pass: pass)
        }
    }

    /// A message's size as the server reported it, nil when the message is gone: what
    /// opening a message whose bytes the store lacks needs (`hasRawMessage` says which).
    /// One indexed lookup, no blob read.
    public func messageSize(emailId: Int64) throws -> Int64? {
        try store.treeRead { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT e.sizeBytes FROM \(MessageEntry.email) WHERE e.id = ?"),
                               arguments: [emailId])
        }
    }

    public func threads(accountId: Int64) throws -> [ThreadEntry] {
        try store.treeRead { db in
            try ThreadEntry.fetchAll(db.cachedStatement(sql: """
                SELECT \(ThreadEntry.columns) FROM thread WHERE accountId = ? ORDER BY latestDate, id
                """), arguments: [accountId])
        }
    }

    public func thread(id: Int64) throws -> ThreadEntry? {
        try store.treeRead { db in
            try ThreadEntry.fetchOne(db.cachedStatement(sql: "SELECT \(ThreadEntry.columns) FROM thread WHERE id = ?"),
                                     arguments: [id])
        }
    }

    /// The listing entries of the attachments of the messages `emailIds`, by message, each
    /// message's in listing order (see `messagesByThread`).
    public func attachmentsByEmail(ids emailIds: [Int64]) throws -> [Int64: [AttachmentEntry]] {
        try store.treeRead { db in
            let statement = try db.cachedStatement(sql: """
                SELECT \(AttachmentEntry.columns) FROM attachment WHERE emailId IN (\(MailStore.idList)) ORDER BY emailId, id
                """)
            var byEmail: [Int64: [AttachmentEntry]] = [:]
            let rows = try Row.fetchCursor(statement, arguments: [MailStore.idListArgument(emailIds)])
            while let row = try rows.next() {
                let entry = AttachmentEntry(row: row)
                byEmail[entry.emailId, default: []].append(entry)
            }
            return byEmail
        }
    }

    public func attachment(id: Int64) throws -> AttachmentRecord? {
        try store.treeRead { db in
            try AttachmentRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM attachment WHERE id = ?"), arguments: [id])
        }
    }

    /// Messages in an account's folders (a message in two folders counts twice, as in
    /// `.status`), from the kept counts (`FolderCounts`): the mount's start-up banner must
    /// not read the links, which a cold start would fetch from disk.
    public func folderMessageCount(accountId: Int64) throws -> Int {
        try store.treeRead { db in
            try Int.fetchOne(db, sql: """
                SELECT COALESCE(SUM(c.messages), 0) FROM folderCount c JOIN folder d ON d.id = c.folderId
                WHERE d.accountId = ? AND d.isSelectable = 1
                """, arguments: [accountId]) ?? 0
        }
    }

    /// Messages and unread messages per selectable folder, from the kept counts
    /// (`FolderCounts`): a row per folder, so a cold `.status` is fast at any size.
    public func folderStatus(accountId: Int64) throws -> [FolderStatusRow] {
        try store.treeRead { db in
            try FolderStatusRow.fetchAll(db, sql: """
                SELECT d.path, d.type, d.uidValidity, d.lastSyncDate, c.messages, c.unread
                FROM folder d JOIN folderCount c ON c.folderId = d.id
                WHERE d.accountId = ? AND d.isSelectable = 1 AND d.localState IS NOT \(FolderLocalState.deleting.sql) ORDER BY d.path
                """, arguments: [accountId])
        }
    }
}
