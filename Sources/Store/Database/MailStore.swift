import Foundation
import GRDB
import Synchronization

/// The local store: one SQLite database (WAL) per data directory, shared by every
/// account. Thread-safe: readers run concurrently, writes are serialized by GRDB.
/// The command that opens it holds it and closes it; each of its users is given the
/// façade it needs (`tree`, `sync`, `importer`) over this one database.
public final class MailStore: Sendable {
    public let databaseURL: URL
    let pool: DatabasePool
    /// Send-queue ids the SMTP server accepted, written the instant it did.
    let acceptanceLog: AcceptanceLog
    /// `storageUse` per account, with when it was computed.
    let storageMemo = Mutex<[Int64: (at: Date, use: StorageUse)]>([:])
    /// The first sign that the file is damaged in pages the start-up checks never read.
    let damageFound = Mutex<StoreFileError?>(nil)
    /// The full-text index, in a file of its own beside the store.
    let searchIndex: SearchIndexWriter
    /// The raw bytes of messages stored whole, in a file of their own beside the store.
    let pack: MessagePack
    /// Gives back the pack's space that deleted messages leave (held here: GRDB holds its
    /// observers weakly).
    let packHoles: PackHoles
    /// Large folders' listings, kept in files beside the store.
    let keptListings: KeptListings

    /// Who else has the store open (`StoreLock`).
    let lock: StoreLock
    /// Set when a user of the store could not be stopped before the process ends
    /// (`leaveOpen`): `close()` then leaves the store as a crash would.
    let leftOpen = Mutex(false)

    /// Opens (creating if needed) `<directory>/mailfs.sqlite`, its full-text index,
    /// `mailfs-search.sqlite`, and its pack of raw messages, `mailfs-messages.pack`. The
    /// directory is made 0700 and every file in it 0600, whatever the umask: mail is
    /// private. A file that is not a usable mailfs
    /// store (damaged, truncated, another program's database) throws `StoreFileError` and
    /// is left as it was; so does a store whose write-ahead log is missing, damaged or not
    /// its own (`WALVerdict`), unless `acceptingLostChanges` (the user's
    /// `--accept-lost-changes`): the store then opens as its file and the valid part of its
    /// log hold it, a log that is not its own moved aside first. Close it with `close()`.
    public convenience init(directory: URL, acceptingLostChanges: Bool = false) throws {
        try self.init(directory: directory, acceptingLostChanges: acceptingLostChanges, punchingHolesWith: MessagePack.punchHole)
    }

    /// `init(directory:)` with the pack's hole punching given: tests make it fail.
    init(directory: URL, acceptingLostChanges: Bool = false, punchingHolesWith punchHole: @escaping MessagePack.HolePuncher) throws {
        _ = SQLiteProcessSettings.applied
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        databaseURL = directory.appendingPathComponent("mailfs.sqlite")
        acceptanceLog = AcceptanceLog(directory: directory)
        let header = try StoreFile.check(databaseURL)
        lock = try StoreLock(directory: directory)
        // The index file first: the store's readers attach it when they open.
        let searchURL = directory.appendingPathComponent(SearchIndexFile.name)
        let index = try Self.failingAsStoreFile(databaseURL) { try SearchIndexFile.open(searchURL) }
        pool = try lock.opening { [databaseURL] alone in
            // Judged only while no other process writes the log.
            if alone, let header { try Self.checkLog(of: databaseURL.path, header: header, accepting: acceptingLostChanges) }
            return try Self.openPool(at: databaseURL, searchIndex: searchURL)
        }
        pack = try MessagePack(directory: directory, punchHole: punchHole)
        searchIndex = SearchIndexWriter(index: index, store: pool, pack: pack)
        searchIndex.catchUp()
        packHoles = PackHoles(pool: pool, pack: pack, databasePath: databaseURL.path)
        packHoles.start()
        keptListings = KeptListings(storeDirectory: directory)
        try Self.failingAsStoreFile(databaseURL) {
            try keptListings.removeStale { [pool] in
                try pool.read { db in Set(try Int64.fetchAll(db, sql: "SELECT folderId FROM folderCount")) }
            }
        }
        try Self.restrictPermissions(of: directory)
    }

    /// `body`, its database errors that say something about the store's files (damage, a
    /// full disk) turned into the `StoreFileError` every command shows.
    private static func failingAsStoreFile<T>(_ database: URL, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw StoreFileError(error, path: database.path) ?? error
        }
    }

    /// Throws the problem with the store's write-ahead log, unless the user accepts losing
    /// what it held; a log that is not the store's is then moved aside.
    private static func checkLog(of database: String, header: DatabaseHeader, accepting: Bool) throws {
        guard let problem = try StoreWAL.problem(database: database, header: header) else { return }
        guard accepting else { throw StoreFileError(path: database, kind: .log(problem)) }
        if case .foreign = problem { try StoreWAL.setAside(database: database) }
    }

    /// The page size of stores created by this version.
    static let pageSize = 16384

    /// The pool, migrated; errors that mean a damaged file become `StoreFileError`.
    private static func openPool(at url: URL, searchIndex: URL) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Another process writing (`mailfs import` beside a mount, the index's writer
        // clearing `searchRemoval`) or closing the store (its last connection checkpoints
        // under an exclusive lock) makes a write or an open wait, not fail.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // Takes effect only on a new, empty file (before WAL is set); an existing store
            // keeps its size. 16 KiB pages: a message's bytes span a quarter of the pages,
            // and the WAL and its checkpoints get a quarter of the writes, which made an
            // import faster (docs/DECISIONS.md, "Import: reading ahead, statement journals
            // in memory, page size").
            try db.execute(sql: "PRAGMA page_size = \(pageSize)")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // 4 MiB of page cache per connection: the pool has several readers, and the
            // mount's memory budget matters more than re-reading hot pages.
            try db.execute(sql: "PRAGMA cache_size = -4096")
            // Readers only: a write transaction locks every database attached to its
            // connection, and the index has a writer of its own (`SearchIndexWriter`).
            if db.configuration.readonly {
                try db.execute(sql: "ATTACH DATABASE ? AS \(SearchIndexFile.schema)", arguments: [searchIndex.path])
            }
            try keepLogAtClose(db)
        }
        configuration.maximumReaderCount = 4
        return try failingAsStoreFile(url) {
            try StoreFile.createPrivately(url)
            let pool = try DatabasePool(path: url.path, configuration: configuration)
            try StoreFile.claim(pool)
            try Schema.migrate(pool, searchIndex: searchIndex)
            try keepStatementJournalsInMemory(pool)
            // After the migrations, which read enough of a damaged file to refuse it first.
            try markOpen(pool)
            return pool
        }
    }

    /// The writer's temporary files in memory. Every insert that fires a trigger (the
    /// folder counts, the storage figures) or writes the full-text index keeps a statement
    /// journal, and SQLite spills one above 64 KiB to a file in /var/tmp: an import wrote
    /// more there than to the WAL and the database together, and ran faster without them,
    /// its peak memory unchanged.
    /// Readers keep the default, so large sorts of listings still spill rather than grow.
    private static func keepStatementJournalsInMemory(_ pool: DatabasePool) throws {
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
    }

    /// Gives back the page caches and prepared statements of every connection and closes
    /// the idle readers (they reopen on the next read). Waits for running reads and writes;
    /// meant for a mount that has gone quiet (docs/DECISIONS.md, "Memory when idle").
    public func releaseMemory() {
        pool.releaseMemory()
        searchIndex.releaseMemory()
    }

    /// An in-process store for tests (a temporary directory, removed by the caller).
    public static func temporary() throws -> (MailStore, URL) {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("mailfs-store-\(UUID().uuidString)")
        return (try MailStore(directory: dir), dir)
    }

    /// The database files and the pack made private again when found otherwise (a store
    /// copied in with other modes).
    private static func restrictPermissions(of directory: URL) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        for name in names where name.hasPrefix("mailfs.sqlite") || name.hasPrefix(SearchIndexFile.name)
            || name == MessagePack.fileName {
            chmod(directory.appendingPathComponent(name).path, 0o600)
        }
    }
}
