import Foundation
import GRDB

/// A name in a directory resolved without building the directory's listing: `rm *.eml`
/// in a folder of thousands resolves each name with one indexed lookup.
extension TreeStore {
    /// The message listed under `fileName` in a folder (hidden moves excluded).
    public func message(named fileName: String, inFolder folderId: Int64) throws -> MessageEntry? {
        try store.messagesRead { db, pass in
            try MessageEntry.fetchOne(db.cachedStatement(sql: """
                SELECT \(MessageEntry.columns) FROM email e JOIN emailFolder f ON f.emailId = e.id
                \(MessageEntry.joins)
                WHERE e.accountId = (SELECT accountId FROM folder WHERE id = ?) AND e.fileName = ?
                  AND f.folderId = ? AND \(MessageEntry.visible)
                """), arguments: [folderId, fileName, folderId], pass: pass)
        }
    }
}
