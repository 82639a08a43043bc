import Foundation
import GRDB

/// Read-only queries that the mounted tree answers from. All are local and fast.
///
/// Each is one statement run with `treeRead`, outside a transaction: SQLite makes a single
/// statement atomic (WAL: it reads one snapshot), and a BEGIN/COMMIT around it would add
/// two statements and a lock round to every FUSE request that reaches the store. Those run
/// once per directory or file are cached statements: preparing one (GRDB's authorizer
/// works out what it reads) cost more than running it.
extension MailStore {
    /// Runs one read statement on a pooled reader, with no transaction around it.
    func treeRead<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.unsafeRead(body)
    }

    /// A `treeRead` of `MessageEntry` rows. The pack's punching pass is read before the
    /// statement runs, so the pack regions it returns open only if no pass began since
    /// (`PackReaders`).
    func messagesRead<T>(_ body: (Database, _ pass: UInt64) throws -> T) throws -> T {
        let pass = pack.readers.pass
        return try treeRead { db in try body(db, pass) }
    }

    /// A folder's messages in listing order. A folder of `KeptListings.minimumMessages` or
    /// more is read from the listing kept on disk while its version is the folder's, and
    /// kept anew when it is not.
    public func messages(inFolder folderId: Int64) throws -> [MessageEntry] {
        let pass = pack.readers.pass
        let state = try treeRead { db in try Self.listingState(ofFolder: folderId, db) }
        guard let state, state.messages >= KeptListings.minimumMessages else {
            return try treeRead { db in
                try Self.messagesFromStore(inFolder: folderId, db, pass: pass, expected: state?.messages ?? 0)
            }
        }
        if let kept = keptListings.entries(folderId: folderId, version: state.version, pass: pass) { return kept }
        return try keepListing(ofFolder: folderId, pass: pass)
    }

    /// Builds a folder's listing with the version it has in the same snapshot, and keeps it.
    @discardableResult
    func keepListing(ofFolder folderId: Int64, pass: UInt64) throws -> [MessageEntry] {
        let (state, entries) = try pool.read { db in
            let state = try Self.listingState(ofFolder: folderId, db)
            return (state, try Self.messagesFromStore(inFolder: folderId, db, pass: pass, expected: state?.messages ?? 0))
        }
        if let state { keptListings.keep(entries, folderId: folderId, version: state.version) }
        return entries
    }

    /// A folder's message count (`FolderCounts`) and listing version (`ListingVersions`).
    private static func listingState(ofFolder folderId: Int64, _ db: Database) throws -> (messages: Int, version: Int64)? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT messages, listingVersion FROM folderCount WHERE folderId = ?"),
                         arguments: [folderId]).map { ($0[0], $0[1]) }
    }

    /// Keeps the listings of the large folders among `folderIds` (after an import), so the
    /// first `ls` of each reads its file.
    public func keepListings(ofFolders folderIds: [Int64]) throws {
        for folderId in folderIds { _ = try messages(inFolder: folderId) }
    }

    // The kept count (`FolderCounts`) sizes the array: growing it to 10,000 entries cost a
    // first listing more in fresh pages than the query for the count.
    static func messagesFromStore(inFolder folderId: Int64, _ db: Database, pass: UInt64 = 0,
                                  expected: Int = 0) throws -> [MessageEntry] {
        try MessageEntry.fetchListing(db.cachedStatement(sql: """
            SELECT \(MessageEntry.columns) FROM emailFolder f JOIN \(MessageEntry.email) ON e.id = f.emailId
            \(MessageEntry.joins)
            WHERE f.folderId = ? AND \(MessageEntry.visible)
            """), arguments: [folderId], pass: pass, expected: expected)
    }

    public func messages(inThread threadId: Int64) throws -> [MessageEntry] {
        try messagesByThread(ids: [threadId])[threadId] ?? []
    }

    /// The messages of the threads `threadIds`, by thread, each thread's in listing order:
    /// one query where a walk over threads/ would otherwise run one per thread (and the one
    /// query of a single thread's listing). Threads with no message left are absent.
    public func messagesByThread(ids threadIds: [Int64]) throws -> [Int64: [MessageEntry]] {
        try messagesRead { db, pass in
            let statement = try db.cachedStatement(sql: """
                SELECT \(MessageEntry.columns), t.threadId FROM email t JOIN \(MessageEntry.email) ON e.id = t.id
                \(MessageEntry.joins)
                WHERE t.threadId IN (\(Self.idList)) AND e.isDeleted = 0
                ORDER BY t.threadId, COALESCE(e.dateSent, e.dateReceived), e.id
                """)
            var threads: [Int64: [MessageEntry]] = [:]
            let rows = try Row.fetchCursor(statement, arguments: [Self.idListArgument(threadIds)])
            while let row = try rows.next() {
                threads[row[MessageEntry.columnCount], default: []].append(MessageEntry(row: row, pass: pass))
            }
            return threads
        }
    }

    /// A list of ids bound as one argument (`idListArgument`), so one cached statement
    /// serves any number of them.
    static let idList = "SELECT value FROM json_each(?)"

    static func idListArgument(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// FR-SYNC-10: messages with no remaining synced-folder association that were not
    /// deleted or trashed (Gmail's archive), and those of an \Archive folder (elsewhere).
    ///
    /// The messages without a folder are found through the account's narrowest index, one
    /// probe of their links each, and those of \Archive folders through those folders,
    /// rather than testing both for every message through the listing index (two probes
    /// a message, even with nothing to show).
    public func archivedMessages(accountId: Int64) throws -> [MessageEntry] {
        try messagesRead { db, pass in
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
        try messagesRead { db, pass in
            try MessageEntry.fetchListing(db.makeStatement(sql: """
                SELECT \(MessageEntry.columns) FROM \(MessageEntry.email) \(MessageEntry.joins)
                WHERE e.accountId = ? AND e.hasAttachments = 1 AND e.isDeleted = 0
                """), arguments: [accountId], pass: pass)
        }
    }

    /// Every account's INBOX messages, for the unified inbox at the mount root.
    public func inboxMessages() throws -> [MessageEntry] {
        try messagesRead { db, pass in
            try MessageEntry.fetchListing(db.makeStatement(sql: """
                SELECT \(MessageEntry.columns) FROM folder d
                JOIN emailFolder f ON f.folderId = d.id JOIN \(MessageEntry.email) ON e.id = f.emailId
                \(MessageEntry.joins)
                WHERE d.type = 'inbox' AND \(MessageEntry.visible)
                """), pass: pass)
        }
    }

    public func message(id: Int64) throws -> MessageEntry? {
        try messagesRead { db, pass in
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
        try treeRead { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT e.sizeBytes FROM \(MessageEntry.email) WHERE e.id = ?"),
                               arguments: [emailId])
        }
    }

    public func threads(accountId: Int64) throws -> [ThreadEntry] {
        try treeRead { db in
            try ThreadEntry.fetchAll(db.cachedStatement(sql: """
                SELECT \(ThreadEntry.columns) FROM thread WHERE accountId = ? ORDER BY latestDate, id
                """), arguments: [accountId])
        }
    }

    public func thread(id: Int64) throws -> ThreadEntry? {
        try treeRead { db in
            try ThreadEntry.fetchOne(db.cachedStatement(sql: "SELECT \(ThreadEntry.columns) FROM thread WHERE id = ?"),
                                     arguments: [id])
        }
    }

    public func folder(id: Int64) throws -> FolderRecord? {
        try treeRead { db in
            try FolderRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM folder WHERE id = ?"), arguments: [id])
        }
    }

    public func attachments(ofEmail emailId: Int64) throws -> [AttachmentRecord] {
        try treeRead { db in
            try AttachmentRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM attachment WHERE emailId = ? ORDER BY id"),
                                          arguments: [emailId])
        }
    }

    /// The listing entries of the attachments of the messages `emailIds`, by message, each
    /// message's in listing order (see `messagesByThread`).
    public func attachmentsByEmail(ids emailIds: [Int64]) throws -> [Int64: [AttachmentEntry]] {
        try treeRead { db in
            let statement = try db.cachedStatement(sql: """
                SELECT \(AttachmentEntry.columns) FROM attachment WHERE emailId IN (\(Self.idList)) ORDER BY emailId, id
                """)
            var byEmail: [Int64: [AttachmentEntry]] = [:]
            let rows = try Row.fetchCursor(statement, arguments: [Self.idListArgument(emailIds)])
            while let row = try rows.next() {
                let entry = AttachmentEntry(row: row)
                byEmail[entry.emailId, default: []].append(entry)
            }
            return byEmail
        }
    }

    public func attachment(id: Int64) throws -> AttachmentRecord? {
        try treeRead { db in
            try AttachmentRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM attachment WHERE id = ?"), arguments: [id])
        }
    }

    /// Messages in an account's folders (a message in two folders counts twice, as in
    /// `.status`), from the kept counts (`FolderCounts`): the mount's start-up banner must
    /// not read the links, which a cold start would fetch from disk.
    public func folderMessageCount(accountId: Int64) throws -> Int {
        try treeRead { db in
            try Int.fetchOne(db, sql: """
                SELECT COALESCE(SUM(c.messages), 0) FROM folderCount c JOIN folder d ON d.id = c.folderId
                WHERE d.accountId = ? AND d.isSelectable = 1
                """, arguments: [accountId]) ?? 0
        }
    }

    /// Messages and unread messages per selectable folder, from the kept counts
    /// (`FolderCounts`): a row per folder, so a cold `.status` is fast at any size.
    public func folderStatus(accountId: Int64) throws -> [FolderStatusRow] {
        try treeRead { db in
            try FolderStatusRow.fetchAll(db, sql: """
                SELECT d.path, d.type, d.uidValidity, d.lastSyncDate, c.messages, c.unread
                FROM folder d JOIN folderCount c ON c.folderId = d.id
                WHERE d.accountId = ? AND d.isSelectable = 1 AND d.localState IS NOT \(FolderLocalState.deleting.sql) ORDER BY d.path
                """, arguments: [accountId])
        }
    }
}
