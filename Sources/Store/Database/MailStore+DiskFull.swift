import Foundation
import GRDB

extension MailStore {
    /// What `.status` and `.log` say when the disk under the store refused a write (SQLite's
    /// "database or disk is full", a cache file's ENOSPC); nil for any other error. SQLite
    /// rolls the transaction back, so the store stays as it was before the write.
    public func diskFullText(_ error: any Error) -> String? {
        let full = switch error {
        case let error as DatabaseError: error.resultCode == .SQLITE_FULL
        case CacheError.writeFailed(_, let code): code == ENOSPC || code == EDQUOT
        default: false
        }
        guard full else { return nil }
        return "disk full: no space left in \(databaseURL.deletingLastPathComponent().path), where mailfs keeps its store; "
            + "free some space"
    }
}
