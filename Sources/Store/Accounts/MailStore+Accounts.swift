import Foundation
import GRDB

extension MailStore {
    /// The account with this name, created if missing.
    @discardableResult
    public func ensureAccount(name: String, address: String, isOffline: Bool) throws -> AccountRecord {
        try pool.write { db in
            if var account = try AccountRecord.filter(Column("name") == name).fetchOne(db) {
                if account.address != address || account.isOffline != isOffline {
                    account.address = address
                    account.isOffline = isOffline
                    try account.update(db)
                }
                return account
            }
            var account = AccountRecord(id: nil, name: name, address: address, isOffline: isOffline,
                                        lastSyncDate: nil, createdAt: Date())
            try account.insert(db)
            return account
        }
    }

    public func accounts() throws -> [AccountRecord] {
        // One cached statement (`treeRead`): the root's listing and `.status` read them all,
        // and preparing the statement cost more than running it.
        try treeRead { db in try AccountRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM account ORDER BY name")) }
    }

    /// One account by id, one cached statement: the tree reads it at every rm, mv and cp
    /// for the account's write settings, and at every LOOKUP in an account's directory.
    public func account(id: Int64) throws -> AccountRecord? {
        try treeRead { db in try AccountRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM account WHERE id = ?"), arguments: [id]) }
    }

    public func account(named name: String) throws -> AccountRecord? {
        try pool.read { db in try AccountRecord.filter(Column("name") == name).fetchOne(db) }
    }

    public func accountName(id: Int64) throws -> String? {
        try pool.read { db in try String.fetchOne(db, sql: "SELECT name FROM account WHERE id = ?", arguments: [id]) }
    }

    /// Deletes an account and everything it owns (`mailfs forget`), its messages' rows in
    /// the full-text index and their space in the pack included before it returns (the
    /// command exits right after).
    public func deleteAccount(named name: String) throws -> Bool {
        let deleted = try pool.write { db in
            guard let account = try AccountRecord.filter(Column("name") == name).fetchOne(db),
                  let id = account.id else { return false }
            return try AccountRecord.deleteOne(db, key: id)
        }
        try searchIndex.flush()
        try packHoles.punchAll()
        return deleted
    }

    /// The folder at `path` ("Projects/Budget") of an account, created if missing together
    /// with hierarchy-only parents ("Projects"), so every directory of the tree is a row.
    @discardableResult
    public func ensureFolder(accountId: Int64, path: String, imapPath: String,
                             type: FolderType, isSelectable: Bool = true) throws -> FolderRecord {
        try pool.write { db in
            let components = path.split(separator: "/").map(String.init)
            for depth in 1..<max(components.count, 1) {
                let parent = components.prefix(depth).joined(separator: "/")
                _ = try Self.insertFolderIfMissing(
                    FolderRecord(accountId: accountId, path: parent, imapPath: Self.hierarchyMarker + parent,
                                 type: .custom, isSelectable: false), db: db)
            }
            return try Self.insertFolderIfMissing(
                FolderRecord(accountId: accountId, path: path, imapPath: imapPath,
                             type: type, isSelectable: isSelectable), db: db)
        }
    }

    /// The `imapPath` of a directory that exists only because a folder below it does. Not
    /// a NUL byte: SQLite compares text up to the first NUL, so every such name would collide.
    static let hierarchyMarker = "mailfs-hierarchy:"

    private static func insertFolderIfMissing(_ folder: FolderRecord, db: Database) throws -> FolderRecord {
        // A folder being renamed or deleted locally keeps its server name until applied.
        if let inFlux = try FolderRecord
            .filter(Column("accountId") == folder.accountId && Column("imapPath") == folder.imapPath
                    && Column("localState") != nil)
            .fetchOne(db) {
            return inFlux
        }
        let atPath = try FolderRecord
            .filter(Column("accountId") == folder.accountId && Column("path") == folder.path)
            .fetchOne(db)
        let sameServerFolder = atPath?.imapPath == folder.imapPath ? atPath : try FolderRecord
            .filter(Column("accountId") == folder.accountId && Column("imapPath") == folder.imapPath)
            .fetchOne(db)
        if let known = sameServerFolder { return try follow(known, to: folder, displacing: atPath, db: db) }
        if var existing = atPath {
            if folder.isSelectable && !existing.isSelectable {
                existing.isSelectable = true
                existing.imapPath = folder.imapPath
                existing.type = folder.type
                try existing.update(db)
            }
            return existing
        }
        var inserted = folder
        try inserted.insert(db)
        return inserted
    }

    /// A server folder the store knows takes the path and role discovery gives it now (a
    /// role found by its name, a namespace prefix no longer shown), keeping its messages
    /// and sync state. The path may be held only by a directory that exists for a child's
    /// sake, which gives way; any other holder keeps it until the next discovery.
    private static func follow(_ known: FolderRecord, to folder: FolderRecord, displacing holder: FolderRecord?,
                               db: Database) throws -> FolderRecord {
        var moved = known
        if known.path != folder.path {
            if let holder, holder.id != known.id {
                guard holder.imapPath.hasPrefix(hierarchyMarker), holder.localState == nil else { return known }
                _ = try holder.delete(db)
            }
            moved.path = folder.path
        }
        moved.type = folder.type
        if folder.isSelectable { moved.isSelectable = true }
        if moved != known { try moved.update(db) }
        return moved
    }

    /// A folder and the number of subfolders the tree shows directly in it (its link count
    /// is two more), in one statement through the index on the account's paths. Nil when
    /// there is no such folder. The kernel asks a folder's attributes after every unlink and
    /// rename in it; reading all the account's folders for that count (and for a LOOKUP of a
    /// subfolder) cost an `mv` a fifth of its time, most of it in an account with hundreds
    /// of folders (Gmail labels).
    public func folderWithSubfolderCount(id: Int64) throws -> (folder: FolderRecord, subfolders: Int)? {
        try treeRead { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT f.*, \(Self.shownSubfolderCount("f")) AS subfolderCount FROM folder f WHERE f.id = ?
                """), arguments: [id]).map { row in (try FolderRecord(row: row), row["subfolderCount"] as Int) }
        }
    }

    /// The subfolder `name` of a folder, when the tree shows it, with its own subfolder
    /// count: a LOOKUP in a folder of a name that is not a message's.
    public func shownSubfolder(named name: String, of folderId: Int64) throws -> (folder: FolderRecord, subfolders: Int)? {
        try treeRead { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT c.*, \(Self.shownSubfolderCount("c")) AS subfolderCount
                FROM folder f JOIN folder c ON c.accountId = f.accountId AND c.path = f.path || '/' || ?
                WHERE f.id = ? AND c.\(FolderRecord.shownCondition)
                """), arguments: [name, folderId]).map { row in (try FolderRecord(row: row), row["subfolderCount"] as Int) }
        }
    }

    /// How many shown folders sit directly in folder `alias`: paths from "P/" up to "P0"
    /// ('0' follows '/') are P's descendants, and those with no further '/' its children.
    private static func shownSubfolderCount(_ alias: String) -> String {
        """
        (SELECT COUNT(*) FROM folder s WHERE s.accountId = \(alias).accountId
            AND s.path > \(alias).path || '/' AND s.path < \(alias).path || '0'
            AND instr(substr(s.path, length(\(alias).path) + 2), '/') = 0 AND s.\(FolderRecord.shownCondition))
        """
    }

    /// Folder `id` and every folder of its account (itself included), with one statement: a
    /// folder's listing needs the folder and its subfolders. Nil when there is no such folder.
    public func folderAndAccountFolders(id: Int64) throws -> (folder: FolderRecord, accountFolders: [FolderRecord])? {
        let folders = try treeRead { db in
            try FolderRecord.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM folder WHERE accountId = (SELECT accountId FROM folder WHERE id = ?) ORDER BY path
                """), arguments: [id])
        }
        return folders.first { $0.id == id }.map { ($0, folders) }
    }

    public func folders(accountId: Int64) throws -> [FolderRecord] {
        // One statement: the tree runs it at every folder's GETATTR (`treeRead`).
        try treeRead { db in
            try FolderRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM folder WHERE accountId = ? ORDER BY path"),
                                      arguments: [accountId])
        }
    }
}
