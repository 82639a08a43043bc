import Foundation
import GRDB

/// `mailfs backup DEST`: a copy of the store taken while it is in use, written as a data
/// directory of its own (README, "Backing up the store").
///
/// Why the database and the pack agree in the copy:
/// - the database is copied by SQLite's backup API inside one read transaction, so it is
///   the store as of one commit, log included (copying the files would miss what only the
///   log holds);
/// - every region a row of that commit names was written and synced to the pack before the
///   row committed (`MessagePack`), so the pack holds it when the copy reads it; the copy
///   reads the pack up to the end of the last such region, and later appends lie past it;
/// - a region is punched only after its row is deleted: while the copy reads the pack it
///   holds a shared `flock` on it, and no process punches a hole meanwhile
///   (`MessagePack.beginPunching`); holes punched before the snapshot belong to rows it
///   does not have.
extension MailStore {
    public struct BackupReport: Sendable {
        public let destination: URL
        public let databaseBytes: Int64
        public let packBytes: Int64
    }

    /// Writes the store into `destination`, a directory that must be new or empty, as
    /// `mailfs.sqlite` (marked closed: it needs no log), `mailfs-messages.pack` and
    /// `accepted-sends` when there is one. Files are written under `.partial` names and
    /// renamed once complete, the database last: a directory holding `mailfs.sqlite` holds
    /// a whole store.
    public func backup(to destination: URL) throws -> BackupReport {
        try BackupDestination.prepare(destination)
        let database = destination.appendingPathComponent(databaseURL.lastPathComponent)
        let packCopy = destination.appendingPathComponent(MessagePack.fileName)
        let partial = { (url: URL) in URL(fileURLWithPath: url.path + ".partial") }
        do {
            let packBytes = try copyConsistently(database: partial(database), pack: partial(packCopy))
            try copyAcceptanceLog(into: destination)
            try BackupDestination.publish(partial(packCopy), as: packCopy)
            try BackupDestination.publish(partial(database), as: database)
            try BackupDestination.sync(destination)
            return BackupReport(destination: destination, databaseBytes: BackupDestination.size(of: database),
                                packBytes: packBytes)
        } catch {
            for url in [partial(database), partial(packCopy)] { try? FileManager.default.removeItem(at: url) }
            throw error
        }
    }

    /// The database as of one commit, and the pack up to the last region it names.
    private func copyConsistently(database: URL, pack copy: URL) throws -> Int64 {
        let source = Foundation.open(pack.url.path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw PackError(operation: "open", path: pack.url.path, code: errno) }
        defer { Foundation.close(source) }
        while flock(source, LOCK_SH) != 0 {
            guard errno == EINTR else { throw PackError(operation: "flock", path: pack.url.path, code: errno) }
        }
        // Created private first: SQLite would create it with the process's umask, and gives
        // its journal the file's own mode.
        let created = Foundation.open(database.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard created >= 0 else { throw BackupError.failed("cannot create \(database.path): \(String(cString: strerror(errno)))") }
        Foundation.close(created)
        let destination = try DatabaseQueue(path: database.path)
        let packLength = try pool.read { db in
            // The first read fixes the transaction's snapshot; the backup reads the same one.
            let length = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(byteOffset + byteCount), 0) FROM packedContent") ?? 0
            try destination.writeWithoutTransaction { try db.backup(to: $0) }
            return length
        }
        try destination.writeWithoutTransaction { db in
            // One file, with no log of its own to lose, marked as closed cleanly.
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            try StoreOpenMark.write(StoreOpenMark.closedValue, db)
        }
        try destination.close()
        try BackupDestination.syncFile(database)
        let target = Foundation.open(copy.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard target >= 0 else { throw PackError(operation: "create", path: copy.path, code: errno) }
        defer { Foundation.close(target) }
        do {
            guard try SparseCopy.copy(from: source, to: target, length: packLength) else {
                throw PackError(operation: "read", path: pack.url.path,
                                reason: "it ends before byte \(packLength): cut short or replaced")
            }
        } catch let error as FileRangeError {
            throw PackError(operation: "copy", path: copy.path, code: error.code)
        }
        return packLength
    }

    /// Send-queue ids a server accepted that the database may not record yet.
    private func copyAcceptanceLog(into destination: URL) throws {
        guard FileManager.default.fileExists(atPath: acceptanceLog.url.path) else { return }
        let copy = destination.appendingPathComponent(acceptanceLog.url.lastPathComponent)
        try FileManager.default.copyItem(at: acceptanceLog.url, to: copy)
        try BackupDestination.syncFile(copy)
    }
}
