import Foundation
import GRDB

extension StoreReader {
    /// The cached file for `key`, or nil when it is not cached (or its file vanished).
    public func cachedContent(_ key: ContentKey) throws -> CachedFile? {
        guard let row = try store.pool.read({ db in try CachedContentRow.find(key, db: db) }) else { return nil }
        let path = store.cacheDirectory(accountId: row.accountId).appendingPathComponent(row.fileName).path
        guard FileManager.default.fileExists(atPath: path) else {
            try store.pool.write { db in try MailStore.forget([row], db: db) }
            return nil
        }
        let now = Date()
        if now.timeIntervalSince(row.lastAccess) > MailStore.accessGranularity {
            try store.pool.write { db in
                try db.execute(sql: "UPDATE cachedContent SET lastAccess = ? WHERE emailId = ? AND partId = ?",
                               arguments: [now, row.emailId, row.partId])
            }
        }
        return CachedFile(path: path, size: row.sizeBytes)
    }
}
