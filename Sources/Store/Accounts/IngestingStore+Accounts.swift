import Foundation
import GRDB

extension IngestingStore {
    /// The account with this name, created if missing.
    @discardableResult
    public func ensureAccount(name: String, address: String, isOffline: Bool) throws -> AccountRecord {
        try store.pool.write { db in
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

    /// The folder at `path` ("Projects/Budget") of an account, created if missing together
    /// with hierarchy-only parents ("Projects"), so every directory of the tree is a row.
    @discardableResult
    public func ensureFolder(accountId: Int64, path: String, imapPath: String,
                             type: FolderType, isSelectable: Bool = true) throws -> FolderRecord {
        try store.pool.write { db in
            let components = path.split(separator: "/").map(String.init)
            for depth in 1..<max(components.count, 1) {
                let parent = components.prefix(depth).joined(separator: "/")
                _ = try Self.insertFolderIfMissing(
                    FolderRecord(accountId: accountId, path: parent, imapPath: MailStore.hierarchyMarker + parent,
                                 type: .custom, isSelectable: false), db: db)
            }
            return try Self.insertFolderIfMissing(
                FolderRecord(accountId: accountId, path: path, imapPath: imapPath,
                             type: type, isSelectable: isSelectable), db: db)
        }
    }

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
                guard holder.imapPath.hasPrefix(MailStore.hierarchyMarker), holder.localState == nil else { return known }
                _ = try holder.delete(db)
            }
            moved.path = folder.path
        }
        moved.type = folder.type
        if folder.isSelectable { moved.isSelectable = true }
        if moved != known { try moved.update(db) }
        return moved
    }
}
