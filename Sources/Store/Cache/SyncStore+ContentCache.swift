import Foundation
import GRDB

extension SyncStore {
    /// Starts keeping downloaded content: an empty partial file in the account's cache
    /// directory that the download appends to and readers read while it grows.
    public func startContent(_ key: ContentKey) throws -> ContentStream {
        guard let fileName = key.fileName else { throw CacheError.invalidPart(key.description) }
        guard let accountId = try accountId(ofEmail: key.emailId) else { throw CacheError.messageGone }
        let directory = store.cacheDirectory(accountId: accountId)
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
            let evicted = try store.pool.write { db in
                try row.insert(db, onConflict: .replace)
                try MailStore.recordDownload(row, path: path, db: db)
                return try MailStore.evict(accountId: stream.accountId, over: limitBytes, keeping: row, db: db)
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

    /// Where a message can be fetched from: its folders on the server, INBOX first.
    public func serverLocations(emailId: Int64) throws -> [ServerLocation] {
        try store.pool.read { db in
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
        try store.pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT accountId FROM email WHERE id = ?", arguments: [emailId])
        }
    }
}
