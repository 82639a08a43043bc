import Foundation
import GRDB

extension TreeStore {
    /// A folder and the number of subfolders the tree shows directly in it (its link count
    /// is two more), in one statement through the index on the account's paths. Nil when
    /// there is no such folder. The kernel asks a folder's attributes after every unlink and
    /// rename in it; reading all the account's folders for that count (and for a LOOKUP of a
    /// subfolder) cost an `mv` a fifth of its time, most of it in an account with hundreds
    /// of folders (Gmail labels).
    public func folderWithSubfolderCount(id: Int64) throws -> (folder: FolderRecord, subfolders: Int)? {
        try store.treeRead { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT f.*, \(Self.shownSubfolderCount("f")) AS subfolderCount FROM folder f WHERE f.id = ?
                """), arguments: [id]).map { row in (try FolderRecord(row: row), row["subfolderCount"] as Int) }
        }
    }

    /// The subfolder `name` of a folder, when the tree shows it, with its own subfolder
    /// count: a LOOKUP in a folder of a name that is not a message's.
    public func shownSubfolder(named name: String, of folderId: Int64) throws -> (folder: FolderRecord, subfolders: Int)? {
        try store.treeRead { db in
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
        let folders = try store.treeRead { db in
            try FolderRecord.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM folder WHERE accountId = (SELECT accountId FROM folder WHERE id = ?) ORDER BY path
                """), arguments: [id])
        }
        return folders.first { $0.id == id }.map { ($0, folders) }
    }
}
