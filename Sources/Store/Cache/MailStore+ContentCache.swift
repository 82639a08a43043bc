import Foundation
import GRDB

/// The on-disk cache of content downloaded on first read (FR-SYNC-08): one directory per
/// account under the store directory (0700, files 0600), one file per message or part,
/// evicted least recently read first above the account's limit.
extension MailStore {
    /// An access refreshes `lastAccess` at most this often: reads stay read-only, and LRU
    /// order within a minute does not matter.
    static let accessGranularity: TimeInterval = 60

    /// The cached file for `key`, or nil when it is not cached (or its file vanished).
    public func cachedContent(_ key: ContentKey) throws -> CachedFile? {
        guard let row = try pool.read({ db in try CachedContentRow.find(key, db: db) }) else { return nil }
        let path = cacheDirectory(accountId: row.accountId).appendingPathComponent(row.fileName).path
        guard FileManager.default.fileExists(atPath: path) else {
            try pool.write { db in try Self.forget([row], db: db) }
            return nil
        }
        let now = Date()
        if now.timeIntervalSince(row.lastAccess) > Self.accessGranularity {
            try pool.write { db in
                try db.execute(sql: "UPDATE cachedContent SET lastAccess = ? WHERE emailId = ? AND partId = ?",
                               arguments: [now, row.emailId, row.partId])
            }
        }
        return CachedFile(path: path, size: row.sizeBytes)
    }

    /// Starts keeping downloaded content: an empty partial file in the account's cache
    /// directory that the download appends to and readers read while it grows.
    public func startContent(_ key: ContentKey) throws -> ContentStream {
        guard let fileName = key.fileName else { throw CacheError.invalidPart(key.description) }
        guard let accountId = try accountId(ofEmail: key.emailId) else { throw CacheError.messageGone }
        let directory = cacheDirectory(accountId: accountId)
        let partial = try CacheFiles.createPartial(for: fileName, in: directory)
        return ContentStream(key: key, accountId: accountId, fileName: fileName, directory: directory,
                             partialPath: partial.path, fd: partial.fd)
    }

    /// Keeps a completed download: renames its file into the cache, records it (an
    /// attachment gets its exact size and `isDownloaded`), trims the account's cache to
    /// `limitBytes`, least recently read first and never the content just stored, calls
    /// `kept` (what readers may check once they see EOF, such as the log, is done there),
    /// then tells the stream's readers where the end is.
    @discardableResult
    public func finishContent(_ stream: ContentStream, limitBytes: Int64,
                              kept: (CachedFile) -> Void = { _ in }) throws -> CachedFile {
        do {
            let path = try CacheFiles.publish(stream.partialPath, as: stream.fileName, in: stream.directory)
            let row = CachedContentRow(accountId: stream.accountId, emailId: stream.key.emailId,
                                       partId: stream.key.storedPartId, fileName: stream.fileName,
                                       sizeBytes: stream.receivedBytes, lastAccess: Date())
            let evicted = try pool.write { db in
                try row.insert(db, onConflict: .replace)
                try Self.recordDownload(row, path: path, db: db)
                return try Self.evict(accountId: stream.accountId, over: limitBytes, keeping: row, db: db)
            }
            CacheFiles.remove(evicted.map { stream.directory.appendingPathComponent($0.fileName) })
            let file = CachedFile(path: path, size: row.sizeBytes)
            kept(file)
            stream.end(.success(file))
            return file
        } catch {
            abandonContent(stream, because: .failed("cannot keep \(stream.key): \(error)"))
            throw error
        }
    }

    /// Gives up a download: its partial file goes (nothing half-written is ever taken for
    /// cached content) and readers waiting for more bytes get `failure`.
    public func abandonContent(_ stream: ContentStream, because failure: ContentUnavailable) {
        unlink(stream.partialPath)
        stream.end(.failure(failure))
    }

    /// Bytes held in an account's cache.
    public func cacheUsage(accountId: Int64) throws -> Int64 {
        try pool.read { db in try Self.cacheUsage(accountId: accountId, db: db) }
    }

    private static func cacheUsage(accountId: Int64, db: Database) throws -> Int64 {
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

    /// Where a message can be fetched from: its folders on the server, INBOX first.
    public func serverLocations(emailId: Int64) throws -> [ServerLocation] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.id, d.imapPath, d.uidValidity, f.imapUID FROM emailFolder f
                JOIN folder d ON d.id = f.folderId
                WHERE f.emailId = ? AND d.isSelectable = 1
                ORDER BY d.type = 'inbox' DESC, d.id
                """, arguments: [emailId]).map { row in
                ServerLocation(folderId: row[0], imapPath: row[1], uidValidity: row[2], uid: row[3])
            }
        }
    }

    public func accountId(ofEmail emailId: Int64) throws -> Int64? {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT accountId FROM email WHERE id = ?", arguments: [emailId])
        }
    }

    func cacheDirectory(accountId: Int64) -> URL {
        databaseURL.deletingLastPathComponent()
            .appendingPathComponent("cache", isDirectory: true)
            .appendingPathComponent(String(accountId), isDirectory: true)
    }

    /// The attachment row mirrors the cache (FR-SYNC-08 `isDownloaded`/`localPath`), and
    /// a downloaded part's size replaces BODYSTRUCTURE's estimate.
    private static func recordDownload(_ row: CachedContentRow, path: String, db: Database) throws {
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
    private static func evict(accountId: Int64, over limit: Int64, keeping kept: CachedContentRow,
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
    private static func forget(_ rows: [CachedContentRow], db: Database) throws {
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
