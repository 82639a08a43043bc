import Foundation
import GRDB
import MailCore

/// mkdir, rmdir and mv of folders: applied to the tree at once, journaled for the server.
/// The server name is decided when the change is applied (it needs the server's
/// hierarchy delimiter); until then the folder carries a `localState`.
extension TreeStore {
    /// `mkdir`: a new folder at `path` ("Receipts", "Projects/2026"). nil if it exists.
    public func recordCreateFolder(path: String, context: WriteContext) throws -> FolderRecord? {
        try store.pool.write { db in
            guard try FolderRecord.filter(Column("accountId") == context.accountId && Column("path") == path)
                .fetchCount(db) == 0 else { return nil }
            let folder = try MailStore.insertLocalFolder(path: path, type: .custom, context: context, db: db)
            var writer = try JournalWriter(db: db, context: context, now: Date(), deletion: false)
            try writer.insert(.createFolder) { row in
                row.folderId = folder.id
                row.newPath = path
            }
            try writer.finishIfOffline()
            return try FolderRecord.fetchOne(db, key: folder.id)
        }
    }

    /// `rmdir`: refused while the folder holds anything, held deletions included.
    public func recordDeleteFolder(folderId: Int64, context: WriteContext) throws {
        try store.pool.write { db in
            guard var folder = try FolderRecord.fetchOne(db, key: folderId) else { throw LocalChangeError.notFound }
            let children = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM folder WHERE accountId = ? AND path LIKE ? ESCAPE '\\'
                  AND localState IS NOT \(FolderLocalState.deleting.sql)
                """, arguments: [context.accountId, MailStore.likePrefix(folder.path)]) ?? 0
            let messages = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM emailFolder WHERE folderId = ?",
                                            arguments: [folderId]) ?? 0
            guard children == 0, messages == 0 else { throw FolderChangeError.notEmpty }
            folder.localState = .deleting
            try folder.update(db)
            var writer = try JournalWriter(db: db, context: context, now: Date(), deletion: false)
            try writer.insert(.deleteFolder) { row in
                row.folderId = folderId
                row.oldPath = folder.path
            }
            try writer.finishIfOffline()
        }
    }

    /// `mv` of a folder: the folder and everything below it get the new path at once.
    public func recordRenameFolder(folderId: Int64, to newPath: String, context: WriteContext) throws {
        try store.pool.write { db in
            guard var folder = try FolderRecord.fetchOne(db, key: folderId) else { throw LocalChangeError.notFound }
            guard try FolderRecord.filter(Column("accountId") == context.accountId && Column("path") == newPath)
                .fetchCount(db) == 0 else { throw FolderChangeError.exists }
            let oldPath = folder.path
            try MailStore.movePaths(accountId: context.accountId, from: oldPath, to: newPath, db: db)
            folder = try FolderRecord.fetchOne(db, key: folderId) ?? folder
            if folder.localState == nil { folder.localState = .renaming }
            try folder.update(db)
            var writer = try JournalWriter(db: db, context: context, now: Date(), deletion: false)
            try writer.insert(.renameFolder) { row in
                row.folderId = folderId
                row.oldPath = oldPath
                row.newPath = newPath
            }
            try writer.finishIfOffline()
        }
    }
}
