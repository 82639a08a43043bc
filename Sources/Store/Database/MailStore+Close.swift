import Foundation
import GRDB
import GRDBSQLite

/// Opening and closing the store so that, once the last process has closed it cleanly, its
/// file alone holds all of it: the files a backup copies (README, "Backing up the store")
/// are then the whole store, and a log found missing later is known to have mattered
/// (`StoreOpenMark`, `WALVerdict`).
extension MailStore {
    /// Ends this process's use of the store. The full-text index's writer and the pack's
    /// hole punching finish the job under way and drop the rest (the next open catches
    /// up), the connections close, and a process alone with the store first copies the
    /// write-ahead log into the file, empties it and marks the file closed. Call once
    /// nothing else of this process writes: a read or write after it fails. Throws when
    /// the log could not be emptied (another program reading the store): nothing is lost,
    /// the log keeps what the file lacks.
    public func close() throws {
        guard !leftOpen.withLock({ $0 }) else { return }
        searchIndex.stop()
        packHoles.stop()
        try lock.closing { alone in
            defer {
                try? pool.close()
                // After the store's readers, which attach it: its last connection folds its log in.
                try? searchIndex.index.close()
            }
            if alone { try Self.markClosed(pool, path: databaseURL.path) }
        }
    }

    /// For a process ending while something of it may still read or write the store (a
    /// task that did not stop in time): `close()` then does nothing. Closing the
    /// connections under a reader crashes it, and a write after the file is marked closed
    /// would be taken for another store's log at the next open; left open, the store is as
    /// after a crash, which the next open takes as it is (its log intact).
    public func leaveOpen() {
        leftOpen.withLock { $0 = true }
    }

    /// Marks the store open in its file unless it says so already. The checkpoint carries
    /// the mark from the log into the file at once; a reader of another program can hold
    /// it back, and FULL waits for it (up to the busy timeout).
    static func markOpen(_ pool: DatabasePool) throws {
        try pool.writeWithoutTransaction { db in
            guard try StoreOpenMark.read(db) != .open else { return }
            try StoreOpenMark.write(StoreOpenMark.openValue, db)
            if try !checkpoint(db, "PASSIVE") { _ = try checkpoint(db, "FULL") }
        }
    }

    /// Copies the log into the file and empties it, then marks the file closed, in that
    /// order: a file marked closed never has more than that one mark in its log.
    private static func markClosed(_ pool: DatabasePool, path: String) throws {
        try pool.writeWithoutTransaction { db in
            guard try checkpoint(db, "TRUNCATE") else { throw StoreCloseError(path: path) }
            try StoreOpenMark.write(StoreOpenMark.closedValue, db)
            guard try checkpoint(db, "TRUNCATE") else { throw StoreCloseError(path: path) }
        }
    }

    /// `PRAGMA wal_checkpoint(mode)`: true when every frame of the log is in the file (and,
    /// for TRUNCATE, the log is empty).
    private static func checkpoint(_ db: Database, _ mode: String) throws -> Bool {
        guard let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(\(mode))") else { return false }
        let (busy, logFrames, copied): (Int, Int, Int) = (row[0], row[1], row[2])
        return busy == 0 && logFrames == copied
    }

    /// SQLite's last connection to close checkpoints and deletes the log, which would leave a
    /// file marked open with no log, the very sign of a lost one. Persistent: the log stays
    /// (copied into the file) when a process ends without `close()`, and `close()` empties it.
    static func keepLogAtClose(_ db: Database) throws {
        var persist: CInt = 1
        let code = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
    }
}

/// The store closed, but its log could not be copied into its file and emptied.
public struct StoreCloseError: Error, CustomStringConvertible {
    public let path: String

    public var description: String {
        "the store \(path) is closed, but another program reading it kept its write-ahead log from being copied into it: "
            + "its latest state stays in \(StoreWAL.logPath(of: path)) until the next mailfs closes it (mailfs backup copies it whole)"
    }
}
