import Foundation
import GRDB

extension StoreReader {
    public func folder(id: Int64) throws -> FolderRecord? {
        try store.treeRead { db in
            try FolderRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM folder WHERE id = ?"), arguments: [id])
        }
    }
}
