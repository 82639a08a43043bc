import Foundation
import GRDB

/// The on-disk cache of content downloaded on first read (FR-SYNC-08): one directory per
/// account under the store directory (0700, files 0600), one file per message or part,
/// evicted least recently read first above the account's limit.
extension MailStore {
    /// An access refreshes `lastAccess` at most this often: reads stay read-only, and LRU
    /// order within a minute does not matter.
    static let accessGranularity: TimeInterval = 60

    static func cacheUsage(accountId: Int64, db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(sizeBytes), 0) FROM cachedContent WHERE accountId = ?",
                           arguments: [accountId]) ?? 0
    }

    /// Empties an account's cache (`mailfs cache clear`); returns the bytes freed. Files of
    /// messages deleted since they were cached go too.
    @discardableResult
    public func clearCache(accountId: Int64) throws -> Int64 {
        let freed = try pool.write { db in
            let rows = try CachedContentRow.filter(Column("accountId") == accountId).fetchAll(db)
            try Self.forget(rows, db: db)
            return rows.reduce(Int64(0)) { $0 + $1.sizeBytes }
        }
        try? FileManager.default.removeItem(at: cacheDirectory(accountId: accountId))
        return freed
    }

    func cacheDirectory(accountId: Int64) -> URL {
        databaseURL.deletingLastPathComponent()
            .appendingPathComponent("cache", isDirectory: true)
            .appendingPathComponent(String(accountId), isDirectory: true)
    }

    /// The attachment row mirrors the cache (FR-SYNC-08 `isDownloaded`/`localPath`), and
    /// a downloaded part's size replaces BODYSTRUCTURE's estimate.
    static func recordDownload(_ row: CachedContentRow, path: String, db: Database) throws {
        if row.partId.isEmpty {
            try db.execute(sql: "UPDATE email SET sizeBytes = ? WHERE id = ?", arguments: [row.sizeBytes, row.emailId])
        } else {
            try db.execute(sql: """
                UPDATE attachment SET isDownloaded = 1, cachePath = ?, sizeBytes = ?, sizeIsExact = 1, lastAccess = ?
                WHERE emailId = ? AND partId = ?
                """, arguments: [path, row.sizeBytes, row.lastAccess, row.emailId, row.partId])
        }
    }

    /// Drops the least recently read rows until the account fits in `limit`; returns them
    /// so their files are removed once the transaction committed.
    static func evict(accountId: Int64, over limit: Int64, keeping kept: CachedContentRow,
                      db: Database) throws -> [CachedContentRow] {
        var used = try cacheUsage(accountId: accountId, db: db)
        guard used > limit else { return [] }
        let candidates = try CachedContentRow
            .filter(Column("accountId") == accountId)
            .order(Column("lastAccess"), Column("emailId"))
            .fetchCursor(db)
        var evicted: [CachedContentRow] = []
        while used > limit, let row = try candidates.next() {
            if row.emailId == kept.emailId && row.partId == kept.partId { continue }
            evicted.append(row)
            used -= row.sizeBytes
        }
        try forget(evicted, db: db)
        return evicted
    }

    /// Removes cache rows and clears the attachments' download marks (their sizes stay exact).
    static func forget(_ rows: [CachedContentRow], db: Database) throws {
        for row in rows {
            try db.execute(sql: "DELETE FROM cachedContent WHERE emailId = ? AND partId = ?",
                           arguments: [row.emailId, row.partId])
            guard !row.partId.isEmpty else { continue }
            try db.execute(sql: """
                UPDATE attachment SET isDownloaded = 0, cachePath = NULL WHERE emailId = ? AND partId = ?
                """, arguments: [row.emailId, row.partId])
        }
    }
}

public enum CacheError: Error, CustomStringConvertible {
    case invalidPart(String)
    case messageGone
    case writeFailed(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .invalidPart(let what): "cannot cache \(what): invalid part number"
        case .messageGone: "the message is no longer in the store"
        case .writeFailed(let path, let code): "cannot write \(path): \(String(cString: strerror(code)))"
        }
    }
}
