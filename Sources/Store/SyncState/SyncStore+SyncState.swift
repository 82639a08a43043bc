import Foundation
import GRDB
import MailCore

/// What the sync engine reads and writes besides new messages: per-folder checkpoints,
/// known UIDs, flags, deletions. Every write is its own transaction, so a killed sync
/// resumes from the last one (FR-SYNC-02).
extension SyncStore {
    /// The server state of a folder after SELECT, stored with the checkpoint.
    public struct FolderCheckpoint: Sendable, Equatable {
        public var uidValidity: Int64
        public var uidNext: Int64?
        public var highestModSeq: Int64?
        public var lastSyncedUID: Int64

        public init(uidValidity: Int64, uidNext: Int64?, highestModSeq: Int64?, lastSyncedUID: Int64) {
            self.uidValidity = uidValidity
            self.uidNext = uidNext
            self.highestModSeq = highestModSeq
            self.lastSyncedUID = lastSyncedUID
        }
    }

    /// What a completed sync saw of the folder (`FolderRecord.settledMessages`, `settledSince`).
    public struct SettledFolder: Sendable, Equatable {
        public var serverMessages: Int
        public var windowStart: Date

        public init(serverMessages: Int, windowStart: Date) {
            self.serverMessages = serverMessages
            self.windowStart = windowStart
        }
    }

    /// Saves a checkpoint. `settled` is given when the folder's sync completed, which also
    /// dates it and records the folder's own message count; a checkpoint without it (a
    /// batch, a sync with failures) clears the settled state, so the next sync looks at the
    /// whole folder again.
    public func saveCheckpoint(folderId: Int64, _ checkpoint: FolderCheckpoint, settled: SettledFolder?) throws {
        try store.pool.write { db in
            try db.execute(sql: """
                UPDATE folder SET uidValidity = ?, uidNext = ?, highestModSeq = ?, lastSyncedUID = ?,
                    settledMessages = ?, settledSince = ?,
                    settledLinks = CASE WHEN ? THEN (SELECT messages FROM folderCount WHERE folderId = folder.id) END,
                    lastSyncDate = CASE WHEN ? THEN ? ELSE lastSyncDate END
                WHERE id = ?
                """, arguments: [checkpoint.uidValidity, checkpoint.uidNext, checkpoint.highestModSeq,
                                 checkpoint.lastSyncedUID, settled?.serverMessages, settled?.windowStart,
                                 settled != nil, settled != nil, Date(), folderId])
        }
    }

    /// The folder's messages as its listing counts them (`FolderCounts`).
    public func listedCount(folderId: Int64) throws -> Int? {
        try store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT messages FROM folderCount WHERE folderId = ?", arguments: [folderId])
        }
    }

    /// UIDVALIDITY changed: every stored UID of the folder is meaningless. Associations
    /// are kept but marked stale (negative UID) so the re-sync can re-associate known
    /// messages (same Message-ID and fingerprint) instead of deleting and downloading them
    /// again; the sync drops what is still stale at its end (`dropStaleAssociations`).
    public func beginUIDValidityReset(folderId: Int64, newUIDValidity: Int64) throws {
        try store.pool.write { db in
            // Placeholders of journal arrivals are not server UIDs: they stay as they are.
            try db.execute(sql: "UPDATE emailFolder SET imapUID = -imapUID - 1 WHERE folderId = ? AND imapUID > 0",
                           arguments: [folderId])
            try db.execute(sql: """
                UPDATE folder SET uidValidity = ?, uidNext = NULL, highestModSeq = NULL, lastSyncedUID = 0,
                    settledMessages = NULL, settledSince = NULL, settledLinks = NULL
                WHERE id = ?
                """, arguments: [newUIDValidity, folderId])
        }
    }

    public func dropStaleAssociations(folderId: Int64) throws {
        try store.pool.write { db in
            try db.execute(sql: "DELETE FROM emailFolder WHERE folderId = ? AND imapUID < 0 AND imapUID > ?",
                           arguments: [folderId, PlaceholderUID.base])
        }
    }

    /// The UIDs from `first` on that the folder holds: what of a folder's newest mail is
    /// stored already, without reading the whole folder as `knownMessages` does.
    public func heldUIDs(folderId: Int64, from first: Int64) throws -> Set<Int64> {
        try store.pool.read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT imapUID FROM emailFolder WHERE folderId = ? AND imapUID >= ?",
                                   arguments: [folderId, first]))
        }
    }

    /// UIDs the store holds for a folder, with their flags.
    public func knownMessages(folderId: Int64) throws -> [Int64: StoredFlags] {
        try store.pool.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT f.imapUID, e.isRead, e.isStarred, e.isAnswered, e.isDraft
                FROM emailFolder f JOIN email e ON e.id = f.emailId
                WHERE f.folderId = ? AND f.imapUID > 0
                """, arguments: [folderId])
            var result: [Int64: StoredFlags] = [:]
            for row in rows {
                result[row[0]] = StoredFlags(seen: row[1], flagged: row[2], answered: row[3], draft: row[4])
            }
            return result
        }
    }

    public struct StoredFlags: Sendable, Equatable {
        public var seen: Bool
        public var flagged: Bool
        public var answered: Bool
        public var draft: Bool

        public init(seen: Bool, flagged: Bool, answered: Bool, draft: Bool) {
            self.seen = seen
            self.flagged = flagged
            self.answered = answered
            self.draft = draft
        }
    }

    /// Server flags win (FR-SYNC-05), except a flag the user changed locally whose
    /// change is still in the journal: the applier pushes it, then the server agrees.
    /// The unread count of a changed message's thread follows in the same transaction, so
    /// flag changes need no rethread. Returns how many messages changed.
    @discardableResult
    public func applyServerFlags(folderId: Int64, _ flags: [Int64: StoredFlags]) throws -> Int {
        try store.pool.write { db in
            var changed = 0
            for (uid, flag) in flags {
                try db.cachedStatement(sql: """
                    UPDATE email SET
                        isRead = CASE WHEN \(Self.pendingFlag("seen")) THEN isRead ELSE ? END,
                        isStarred = CASE WHEN \(Self.pendingFlag("flagged")) THEN isStarred ELSE ? END,
                        isAnswered = ?, isDraft = ?
                    WHERE id = (SELECT emailId FROM emailFolder WHERE folderId = ? AND imapUID = ?)
                      AND (isRead <> ? OR isStarred <> ? OR isAnswered <> ? OR isDraft <> ?)
                    """).execute(arguments: [flag.seen, flag.flagged, flag.answered, flag.draft, folderId, uid,
                                             flag.seen, flag.flagged, flag.answered, flag.draft])
                guard db.changesCount > 0 else { continue }
                changed += 1
                let emailId = try Int64.fetchOne(db.cachedStatement(sql: """
                    SELECT emailId FROM emailFolder WHERE folderId = ? AND imapUID = ?
                    """), arguments: [folderId, uid])
                if let emailId { try MailStore.recountUnread(threadOf: emailId, db: db) }
            }
            return changed
        }
    }

    /// SQL: the `email` row has a journal change of `flag` not yet applied.
    private static func pendingFlag(_ flag: String) -> String {
        """
        EXISTS (SELECT 1 FROM change c WHERE c.emailId = email.id AND c.kind = 'flag'
                AND c.flag = '\(flag)' AND c.state IN ('pending', 'applying'))
        """
    }

    /// The server no longer has these UIDs (UID SEARCH ALL difference): the messages
    /// leave the folder. The messages themselves stay until `purgeUnfiled`.
    @discardableResult
    public func removeFromFolder(folderId: Int64, uids: [Int64]) throws -> Int {
        try store.pool.write { db in
            var removed = 0
            for slice in uids.inSQLSlices {
                let marks = databaseQuestionMarks(count: slice.count)
                try db.execute(sql: "DELETE FROM emailFolder WHERE folderId = ? AND imapUID IN (\(marks))",
                               arguments: StatementArguments([folderId] + slice))
                removed += db.changesCount
            }
            return removed
        }
    }

    /// A server message new to a folder, by what identifies it before its download.
    public struct ServerMessage: Sendable {
        public var fingerprint: MessageFingerprint
        public var messageID: String?
        public var uid: Int64

        public init(fingerprint: MessageFingerprint, messageID: String?, uid: Int64) {
            self.fingerprint = fingerprint
            self.messageID = messageID
            self.uid = uid
        }
    }

    /// Whether the server message `uid` of `folderId` is another copy of a stored message
    /// (`SameMessage.serverCopy`: same Message-ID and fingerprint, as a COPY or a Gmail label
    /// gives, or the same folder's message back under a new UIDVALIDITY); if so it is
    /// linked to the folder under `uid` (FR-SYNC-01) without a download.
    func linkKnownMessage(fingerprint: MessageFingerprint, messageID: String?, accountId: Int64,
                                 folderId: Int64, uid: Int64) throws -> Bool {
        let message = ServerMessage(fingerprint: fingerprint, messageID: messageID, uid: uid)
        return try !linkKnownMessages([message], accountId: accountId, folderId: folderId).isEmpty
    }

    /// The UIDs of `messages` that `linkKnownMessages` would link now, read without the
    /// write lock: a sync asks while it stores the batch before, and downloads the others.
    /// Of two UIDs that are copies of the same stored message only the first is named: once
    /// the first is linked the second may be no copy to link, so it is downloaded, and the
    /// write links it to another stored copy if there is one.
    public func serverCopies(_ messages: [ServerMessage], accountId: Int64, folderId: Int64) throws -> Set<Int64> {
        try store.pool.read { db in
            var known = Set<Int64>()
            var copied = Set<Int64>()
            for message in messages {
                guard let copy = try SameMessage.findServerCopy(
                    fingerprint: message.fingerprint, messageId: message.messageID, accountId: accountId,
                    folderId: folderId, db: db), copied.insert(copy.id).inserted else { continue }
                known.insert(message.uid)
            }
            return known
        }
    }

    /// Whether the account has a message that `folderId` does not hold under a server UID:
    /// one that a new UID of the folder could be a copy of (`SameMessage.serverCopy`). Reads
    /// the folder's messages until it finds one; the first message of another folder ends it.
    public func holdsMessagesOutside(folderId: Int64, accountId: Int64) throws -> Bool {
        try store.pool.read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM email e WHERE e.accountId = ? AND NOT EXISTS
                  (SELECT 1 FROM emailFolder f WHERE f.emailId = e.id AND f.folderId = ? AND f.imapUID > 0))
                """, arguments: [accountId, folderId]) ?? true
        }
    }

    /// `linkKnownMessage` for a batch of a folder's new messages, in one transaction (the
    /// sync asks for every message it is about to download); returns the UIDs linked.
    public func linkKnownMessages(_ messages: [ServerMessage], accountId: Int64, folderId: Int64) throws -> Set<Int64> {
        try store.pool.write { db in
            var linked = Set<Int64>()
            for message in messages {
                guard let emailId = try SameMessage.serverCopy(fingerprint: message.fingerprint, messageId: message.messageID,
                                                               accountId: accountId, folderId: folderId, db: db) else {
                    continue
                }
                _ = try MailStore.associate(emailId: emailId, folderId: folderId, uid: message.uid, db: db)
                linked.insert(message.uid)
            }
            return linked
        }
    }

    /// Generic IMAP: a message that is in no folder any more was deleted on the server
    /// (a move re-links it in its new folder first, within the same cycle). Gmail keeps
    /// such messages: they are the archive (FR-SYNC-10). Threads are recomputed when
    /// anything was deleted, so no caller leaves them counting gone messages. Returns how
    /// many were deleted.
    @discardableResult
    public func purgeUnfiled(accountId: Int64) throws -> Int {
        let purged = try store.pool.write { db in
            let sql = "SELECT id FROM email e WHERE accountId = ? AND NOT EXISTS (SELECT 1 FROM emailFolder f WHERE f.emailId = e.id)"
            let ids = try Int64.fetchAll(db, sql: sql, arguments: [accountId])
            let delete = try db.cachedStatement(sql: "DELETE FROM email WHERE id = ?")
            for id in ids { try delete.execute(arguments: [id]) }
            return ids.count
        }
        if purged > 0 { _ = try rethread(accountId: accountId) }
        return purged
    }

    /// "Reset Sync State" (FR-SYNC-18): forget every checkpoint so the next sync is a full
    /// one. Messages stay in their folders under their UIDs, not downloaded again.
    public func resetSyncState(accountName: String) throws {
        try store.pool.write { db in
            try db.execute(sql: """
                UPDATE folder SET uidValidity = NULL, uidNext = NULL, highestModSeq = NULL, lastSyncedUID = 0,
                    settledMessages = NULL, settledSince = NULL, settledLinks = NULL
                WHERE accountId = (SELECT id FROM account WHERE name = ?)
                """, arguments: [accountName])
        }
    }

    public func markSynced(accountId: Int64, at date: Date = Date()) throws {
        try store.pool.write { db in
            try db.execute(sql: "UPDATE account SET lastSyncDate = ? WHERE id = ?", arguments: [date, accountId])
        }
    }

    /// Folders of an account that the server no longer lists are removed with their associations.
    public func removeFolders(accountId: Int64, keepingIMAPPaths keep: Set<String>) throws {
        try store.pool.write { db in
            let folders = try FolderRecord.filter(Column("accountId") == accountId).fetchAll(db)
            // A folder with a local operation in flight is the journal's until it is applied.
            var removed = Set<Int64>()
            for folder in folders where folder.isSelectable && folder.localState == nil && !keep.contains(folder.imapPath) {
                _ = try folder.delete(db)
                if let id = folder.id { removed.insert(id) }
            }
            // A directory that stood only for folders below it goes with the last of them
            // (deepest first, so a chain of them goes in one pass).
            var remaining = folders.filter { !removed.contains($0.id ?? -1) }
            let markers = remaining.filter { $0.imapPath.hasPrefix(MailStore.hierarchyMarker) && $0.localState == nil }
            for marker in markers.sorted(by: { $0.path.count > $1.path.count })
            where !remaining.contains(where: { $0.path.hasPrefix(marker.path + "/") }) {
                _ = try marker.delete(db)
                remaining.removeAll { $0.id == marker.id }
            }
        }
    }
}
