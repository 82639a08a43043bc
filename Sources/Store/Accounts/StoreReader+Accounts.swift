import Foundation
import GRDB

extension StoreReader {
    public func accounts() throws -> [AccountRecord] {
        // One cached statement (`treeRead`): the root's listing and `.status` read them all,
        // and preparing the statement cost more than running it.
        try store.treeRead { db in try AccountRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM account ORDER BY name")) }
    }

    /// One account by id, one cached statement: the tree reads it at every rm, mv and cp
    /// for the account's write settings, and at every LOOKUP in an account's directory.
    public func account(id: Int64) throws -> AccountRecord? {
        try store.treeRead { db in try AccountRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM account WHERE id = ?"), arguments: [id]) }
    }

    public func account(named name: String) throws -> AccountRecord? {
        try store.pool.read { db in try AccountRecord.filter(Column("name") == name).fetchOne(db) }
    }

    public func accountName(id: Int64) throws -> String? {
        try store.pool.read { db in try String.fetchOne(db, sql: "SELECT name FROM account WHERE id = ?", arguments: [id]) }
    }

    public func folders(accountId: Int64) throws -> [FolderRecord] {
        // One statement: the tree runs it at every folder's GETATTR (`treeRead`).
        try store.treeRead { db in
            try FolderRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM folder WHERE accountId = ? ORDER BY path"),
                                      arguments: [accountId])
        }
    }
}
