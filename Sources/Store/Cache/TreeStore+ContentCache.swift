import Foundation
import GRDB

extension TreeStore {
    /// Bytes held in an account's cache.
    public func cacheUsage(accountId: Int64) throws -> Int64 {
        try store.pool.read { db in try MailStore.cacheUsage(accountId: accountId, db: db) }
    }
}
