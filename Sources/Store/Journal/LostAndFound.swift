import GRDB

/// The account's local `lost+found/` folder: where a message copied into a folder (`cp`)
/// goes when the server refuses its APPEND for good. The message exists only in the
/// store then; dropping it would make a file vanish after `cp` returned 0.
///
/// The folder is the store's alone: it has no server name (`imapPath` starts with
/// `mailfs-`, which no applier command sends), `localState` `.local` keeps the sync's
/// folder discovery from removing it and sync-window retention from emptying it, and
/// the tree refuses rmdir, mv and new files there. `rm` in it deletes for good, locally;
/// `cp` out of it APPENDs again.
public enum LostAndFound {
    public static let path = "lost+found"
    static let localState = FolderLocalState.local

    /// The folder's id, created the first time a message needs it.
    static func folderId(accountId: Int64, db: Database) throws -> Int64 {
        if let id = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM folder WHERE accountId = ? AND localState = ?
            """), arguments: [accountId, localState]) {
            return id
        }
        var folder = FolderRecord(accountId: accountId, path: try freePath(accountId: accountId, db: db),
                                  imapPath: "mailfs-local:\(path)", type: .custom, isSelectable: true)
        folder.localState = localState
        try folder.insert(db)
        guard let id = folder.id else { throw LocalChangeError.notFound }
        return id
    }

    /// A message operation that touches `lost+found/`, carried out here with no journal
    /// row (the server has nothing to change); nil for any other operation. `rm` there
    /// deletes the message's copy for good; `mv` out of it or into it is refused (`cp`
    /// out of it APPENDs a new copy, which the store can check; a move would name a
    /// server UID the message never had).
    static func record(_ operation: MessageOperation, emailId: Int64, db: Database) throws -> Bool {
        let folders: [Int64]
        switch operation {
        case .remove(let folder), .archive(let folder), .unarchive(let folder): folders = [folder]
        case .move(let from, let to): folders = [from, to]
        case .removeArchived: folders = []
        }
        guard try folders.contains(where: { try holds(folderId: $0, db: db) }) else { return false }
        guard case .remove(let folderId) = operation else { throw LocalChangeError.notPermitted }
        try db.cachedStatement(sql: "DELETE FROM emailFolder WHERE emailId = ? AND folderId = ?")
            .execute(arguments: [emailId, folderId])
        try db.cachedStatement(sql: """
            DELETE FROM email WHERE id = ? AND NOT EXISTS (SELECT 1 FROM emailFolder f WHERE f.emailId = email.id)
            """).execute(arguments: [emailId])
        return true
    }

    private static func holds(folderId: Int64, db: Database) throws -> Bool {
        try FolderLocalState.fetchOne(db.cachedStatement(sql: "SELECT localState FROM folder WHERE id = ?"),
                            arguments: [folderId]) == localState
    }

    /// Whether the folder is an account's `lost+found/`.
    public static func isLostAndFound(_ folder: FolderRecord) -> Bool {
        folder.localState == localState
    }

    /// `lost+found`, or `lost+found-2`... when a server folder has that name.
    private static func freePath(accountId: Int64, db: Database) throws -> String {
        var candidate = path
        var suffix = 1
        while try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM folder WHERE accountId = ? AND path = ?)"),
                                arguments: [accountId, candidate]) == true {
            suffix += 1
            candidate = "\(path)-\(suffix)"
        }
        return candidate
    }
}
