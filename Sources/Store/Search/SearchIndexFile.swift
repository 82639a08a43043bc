import Foundation
import GRDB

/// The full-text index's own database file, `mailfs-search.sqlite` beside the store: one
/// FTS5 table `emailSearch` (`SearchEntry`), porter stemming over unicode61 so `invoice`
/// finds "invoices" as notmuch's stemmer does. A file of its own has a writer of its own,
/// so indexing runs beside the store's writer instead of inside its transactions
/// (docs/DECISIONS.md, "The full-text index in a file of its own").
///
/// Everything in it can be rebuilt from the store: a file SQLite cannot open as a database
/// is removed and a new one made, which `SearchIndexWriter.catchUp` fills again.
enum SearchIndexFile {
    static let name = "mailfs-search.sqlite"
    /// The schema name the store's read connections give the file.
    static let schema = "search"

    /// Opens (creating if needed) the file, with its table.
    static func open(_ url: URL) throws -> DatabaseQueue {
        do {
            return try openQueue(url)
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            remove(url)
            return try openQueue(url)
        }
    }

    private static func openQueue(_ url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        // Another process may be writing the index (`mailfs import` beside a mount) or
        // closing it (its last connection checkpoints under an exclusive lock): wait.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = \(MailStore.pageSize)")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -4096")
            // FTS5 writes statement journals for every insert: in memory, as the store's writer.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        try StoreFile.createPrivately(url)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            // WAL: the store's readers read the index while it is written.
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.create(virtualTable: "emailSearch", ifNotExists: true, using: FTS5()) { t in
                t.tokenizer = .porter(wrapping: .unicode61())
                for column in SearchEntry.columns { t.column(column) }
            }
        }
        return queue
    }

    private static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}
