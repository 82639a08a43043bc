import GRDB

extension ImportStore {
    /// For an import: the writer checkpoints once 16,000 pages (256 MiB) wait in the WAL
    /// instead of SQLite's 1,000: an index page that many messages' rows go through (their
    /// file names, fingerprints, folder links) is copied to the database at each checkpoint
    /// it changed before, and there are a sixteenth as many (docs/DECISIONS.md, "The
    /// kernel reads ahead, and an import checkpoints rarely"). The WAL is cut back to
    /// 64 MiB when it restarts, so it does not keep its largest size for good.
    public func checkpointRarely() throws {
        try store.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 16000; PRAGMA journal_size_limit = \(64 << 20)")
        }
    }

    /// Back to SQLite's default checkpoints (every 1,000 pages), after `checkpointRarely`.
    public func checkpointAsUsual() throws {
        try store.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
    }
}
