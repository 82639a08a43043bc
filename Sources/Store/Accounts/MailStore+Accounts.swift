import Foundation
import GRDB

extension MailStore {
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

    /// The `imapPath` of a directory that exists only because a folder below it does. Not
    /// a NUL byte: SQLite compares text up to the first NUL, so every such name would collide.
    static let hierarchyMarker = "mailfs-hierarchy:"
}
