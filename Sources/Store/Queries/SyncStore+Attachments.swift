import Foundation
import GRDB

extension SyncStore {
    public func attachments(ofEmail emailId: Int64) throws -> [AttachmentRecord] {
        try store.treeRead { db in
            try AttachmentRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM attachment WHERE emailId = ? ORDER BY id"),
                                          arguments: [emailId])
        }
    }
}
