import Foundation
import GRDB

/// The local side of a journal row once its fate is known: applied on the server
/// (`finish`), applied with no server (`finishOffline`), or given up (`revert`).
struct JournalFinisher {
    let db: Database

    /// What the server said about the change, when it says anything.
    struct ServerResult: Sendable {
        /// The UID the message got in the target folder (COPYUID/APPENDUID, or found).
        var targetUID: Int64?
        /// The server name a folder got (CREATE, RENAME), and the server's hierarchy
        /// delimiter, so subfolders' names follow a rename.
        var folderName: String?
        var delimiter: String?
        var gone = false
    }

    func finish(_ row: JournalChange, result: ServerResult) throws {
        switch row.kind {
        case .flag:
            break
        case .move, .expunge, .copyFromAll, .archiveToAll, .append:
            try dropLeaving(row)
            if result.gone { try dropPlaceholder(row) } else { try numberArrival(row, uid: result.targetUID) }
            try purgeIfDeleted(row.emailId)
        case .createFolder, .renameFolder:
            if let folderId = row.folderId, let name = result.folderName {
                try renameServerPaths(folderId: folderId, to: name, delimiter: result.delimiter)
            }
            try execute("UPDATE folder SET localState = NULL WHERE id = ? AND localState <> \(FolderLocalState.deleting.sql)",
                [row.folderId])
        case .deleteFolder:
            try execute("DELETE FROM folder WHERE id = ?", [row.folderId])
        }
        try markDone(row)
    }

    /// No server: arrivals get the folder's next local UID; folders get their path as name.
    func finishOffline(_ row: JournalChange) throws {
        var uid: Int64?
        if let target = row.targetFolderId, row.placeholderUID != nil {
            let last = try Int64.fetchOne(db.cachedStatement(sql: "SELECT lastSyncedUID FROM folder WHERE id = ?"),
                                          arguments: [target]) ?? 0
            try execute("UPDATE folder SET lastSyncedUID = ? WHERE id = ?", [last + 1, target])
            uid = last + 1
        }
        let path = try row.folderId.flatMap {
            try String.fetchOne(db.cachedStatement(sql: "SELECT path FROM folder WHERE id = ?"), arguments: [$0])
        }
        try finish(row, result: ServerResult(targetUID: uid, folderName: path))
        if row.kind == .expunge || row.kind == .move { try purgeUnfiled(row.emailId) }
    }

    /// The local state goes back to what the server has; the row is dropped.
    func revert(_ row: JournalChange) throws {
        switch row.kind {
        case .flag:
            if let emailId = row.emailId, let flagName = row.flag, let flag = UserFlag(rawValue: flagName),
               let previous = row.previousValue {
                try MailStore.setFlag(flag, to: previous, emailId: emailId, db: db)
            }
        case .move, .expunge, .copyFromAll, .archiveToAll:
            try execute("UPDATE emailFolder SET pending = NULL WHERE \(Self.association) AND pending = \(PendingLink.leaving.sql)",
                Self.associationArguments(row))
            try dropPlaceholder(row)
            try execute("UPDATE email SET isDeleted = 0 WHERE id = ?", [row.emailId])
        case .append:
            try setAside(row)
        case .createFolder:
            try execute("DELETE FROM folder WHERE id = ? AND localState = \(FolderLocalState.creating.sql)", [row.folderId])
        case .deleteFolder:
            try execute("UPDATE folder SET localState = NULL WHERE id = ?", [row.folderId])
        case .renameFolder:
            if let old = row.oldPath, let new = row.newPath {
                try MailStore.movePaths(accountId: row.accountId, from: new, to: old, db: db)
            }
            try execute("UPDATE folder SET localState = NULL WHERE id = ? AND localState = \(FolderLocalState.renaming.sql)",
                [row.folderId])
        }
        _ = try JournalChange.deleteOne(db, key: row.id)
    }

    /// Statements run through `execute` are cached: the applier finishes every row the
    /// server confirms, and preparing a statement that writes `emailFolder` or `email`
    /// compiles the triggers it fires (the kept counts) with it, which cost more than
    /// running it.
    private func execute(_ sql: String, _ arguments: StatementArguments) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }

    private func markDone(_ row: JournalChange) throws {
        try execute("UPDATE change SET state = 'done', raw = NULL, lastError = NULL WHERE id = ?",
            [row.id])
    }

    private func dropLeaving(_ row: JournalChange) throws {
        guard row.folderId != nil else { return }
        try execute("DELETE FROM emailFolder WHERE \(Self.association) AND pending = \(PendingLink.leaving.sql)",
            Self.associationArguments(row))
    }

    /// The row's source association: by message and folder (its UID may have been a
    /// placeholder that the server numbered since), else by folder and UID.
    static let association = "folderId = ? AND (emailId = ? OR (? IS NULL AND imapUID = ?))"

    static func associationArguments(_ row: JournalChange) -> StatementArguments {
        [row.folderId, row.emailId, row.emailId, row.uid]
    }

    /// The placeholder takes the server's UID; without one it stays until the next sync
    /// links the message by Message-ID (which renumbers it).
    private func numberArrival(_ row: JournalChange, uid: Int64?) throws {
        guard let target = row.targetFolderId, let placeholder = row.placeholderUID, let uid else { return }
        try execute("DELETE FROM emailFolder WHERE folderId = ? AND imapUID = ? AND emailId IS NOT ?",
            [target, uid, row.emailId])
        try execute("""
            UPDATE OR IGNORE emailFolder SET imapUID = ?, pending = CASE WHEN pending = \(PendingLink.arriving.sql) THEN NULL ELSE pending END
            WHERE folderId = ? AND imapUID = ?
            """, [uid, target, placeholder])
    }

    /// A refused APPEND: its message exists only here, so it goes to the account's
    /// `lost+found/` (`LostAndFound`) instead of being dropped: from its arriving
    /// association, or with none left when the sync removed the target folder meanwhile.
    /// A copy the user already removed again (`leaving`) is only dropped.
    private func setAside(_ row: JournalChange) throws {
        guard let emailId = row.emailId, let placeholder = row.placeholderUID else { return }
        let link = try String?.fetchOne(db.cachedStatement(sql: """
            SELECT COALESCE(pending, '') FROM emailFolder WHERE folderId = ? AND imapUID = ?
            """), arguments: [row.targetFolderId, placeholder])
        try dropPlaceholder(row)
        guard link != PendingLink.leaving.rawValue,
              try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM email WHERE id = ?)"),
                                arguments: [emailId]) == true else { return }
        let keeper = try LostAndFound.folderId(accountId: row.accountId, db: db)
        try execute("INSERT OR IGNORE INTO emailFolder (emailId, folderId, imapUID) VALUES (?, ?, ?)",
            [emailId, keeper, placeholder])
    }

    private func dropPlaceholder(_ row: JournalChange) throws {
        guard let target = row.targetFolderId, let placeholder = row.placeholderUID else { return }
        try execute("DELETE FROM emailFolder WHERE folderId = ? AND imapUID = ?", [target, placeholder])
    }

    /// A message deleted for good leaves the store with its last association.
    private func purgeIfDeleted(_ emailId: Int64?) throws {
        guard let emailId else { return }
        try execute("""
            DELETE FROM email WHERE id = ? AND isDeleted = 1
              AND NOT EXISTS (SELECT 1 FROM emailFolder f WHERE f.emailId = email.id)
            """, [emailId])
    }

    private func purgeUnfiled(_ emailId: Int64?) throws {
        guard let emailId else { return }
        try execute("DELETE FROM email WHERE id = ? AND NOT EXISTS (SELECT 1 FROM emailFolder f WHERE f.emailId = email.id)",
            [emailId])
    }

    /// A created or renamed folder's server name, and its subfolders' names below it.
    private func renameServerPaths(folderId: Int64, to name: String, delimiter: String?) throws {
        guard let old = try String.fetchOne(db, sql: "SELECT imapPath FROM folder WHERE id = ?", arguments: [folderId]),
              old != name else { return }
        try execute("UPDATE folder SET imapPath = ? WHERE id = ?", [name, folderId])
        guard let delimiter else { return }
        let accountId = try Int64.fetchOne(db, sql: "SELECT accountId FROM folder WHERE id = ?", arguments: [folderId])
        try execute("""
            UPDATE folder SET imapPath = ? || substr(imapPath, ?) WHERE accountId = ? AND substr(imapPath, 1, ?) = ?
            """, [name + delimiter, old.unicodeScalars.count + 2, accountId,
                old.unicodeScalars.count + 1, old + delimiter])
    }
}
