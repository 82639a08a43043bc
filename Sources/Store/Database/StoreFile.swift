import Foundation
import GRDB

/// Why an existing store file cannot be used. Every description names the file and says
/// what to do: a damaged or foreign file must never turn into a silently empty mount, and
/// mailfs never writes to a file it does not recognise as its own.
public struct StoreFileError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// 0 bytes: a store is never empty once created (WAL mode writes its header at once).
        case empty
        /// Not an SQLite database at all (overwritten, or another kind of file).
        case notADatabase
        /// An SQLite database SQLite itself finds damaged (truncated, pages overwritten).
        case damaged(String)
        /// A valid SQLite database of another program.
        case foreign(String)
        /// The file could not be read (permissions, I/O).
        case unreadable(String)
        /// No space left where the store is: SQLite cannot even create its WAL index.
        case diskFull
        /// Its write-ahead log is missing, damaged or another store's (`WALVerdict`).
        case log(WALProblem)
    }

    public var path: String
    public var kind: Kind

    public var description: String {
        switch kind {
        case .empty:
            return "the store \(path) is empty (0 bytes): it was truncated. \(whatToDo)"
        case .notADatabase:
            return "the store \(path) is not an SQLite database (overwritten or corrupted). \(whatToDo)"
        case .damaged(let reason):
            return "the store \(path) is damaged (\(reason)). \(whatToDo)"
        case .foreign(let what):
            return "\(path) is not a mailfs store but an SQLite database of another program (\(what)). "
                + "mailfs leaves it untouched: point --data-dir (or $XDG_DATA_HOME) at a mailfs store or an empty directory"
        case .unreadable(let reason):
            return "cannot read the store \(path): \(reason)"
        case .diskFull:
            return "disk full: no space left in \(URL(fileURLWithPath: path).deletingLastPathComponent().path), "
                + "where mailfs keeps its store; free some space and start mailfs again"
        case .log(let problem):
            return describe(problem)
        }
    }

    /// SQLite would open the store as if nothing were wrong: each says what would be lost
    /// and how to go on knowingly.
    private func describe(_ problem: WALProblem) -> String {
        let log = StoreWAL.logPath(of: path)
        let accept = "run the command again with --accept-lost-changes"
        switch problem {
        case .lost(let reason):
            return "the write-ahead log \(log) of the store \(path) \(reason). Opening the store would silently go back "
                + "to an older state. If the store was copied or moved, put its -wal and -shm files from the same moment "
                + "back beside it (mailfs backup makes copies that need neither); to open it without those changes, \(accept)"
        case .damaged(let reason):
            return "the write-ahead log \(log) of the store \(path) is damaged (\(reason)). Restore the store from a "
                + "backup, or, to open it with what the log holds before the damage, \(accept)"
        case .foreign(let reason):
            return "\(log) is not the write-ahead log of the store \(path) (\(reason)): opening the store would copy "
                + "its pages into it. To move it aside (to \(log).foreign) and open the store as its file holds it, \(accept)"
        }
    }

    /// A damaged store is never repaired or replaced behind the user's back.
    private var whatToDo: String {
        "Restore it from a backup, or, with mailfs stopped, move it aside to start a new store "
            + "(configured accounts sync again; imported mail must be imported again): "
            + "mv \(path) \(path).broken (and its -wal and -shm files, if any, and \(MessagePack.fileName) beside it)"
    }

    /// The store error behind a database error met while opening or first reading the
    /// store; nil for errors that say nothing about the file (a busy lock). SQLite reports a
    /// full disk at open as an I/O error on its WAL index (`-shm`), so the free space decides.
    public init?(_ error: DatabaseError, path: String) {
        switch error.resultCode {
        case .SQLITE_NOTADB: self.init(path: path, kind: .notADatabase)
        case .SQLITE_CORRUPT: self.init(path: path, kind: .damaged(error.message ?? "malformed"))
        case .SQLITE_FULL,
             .SQLITE_CANTOPEN where StoreFile.isOutOfSpace(besides: path),
             .SQLITE_IOERR where StoreFile.isOutOfSpace(besides: path):
            self.init(path: path, kind: .diskFull)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH, .SQLITE_IOERR:
            self.init(path: path, kind: .unreadable(error.message ?? "\(error.resultCode)"))
        default: return nil
        }
    }

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }
}

/// Recognising a store file before mailfs opens it for writing (which would turn a foreign
/// database into WAL mode and add mailfs's tables to it).
enum StoreFile {
    /// `PRAGMA application_id` of a mailfs store: "mlfs".
    static let applicationID: Int32 = 0x6D6C_6673
    /// The first migration of every mailfs store, for stores made before the application id.
    static let firstMigration = "v1-core"

    /// Creates `url` empty with mode 0600 unless it exists, for SQLite to open: it would
    /// create it with the process's umask, and it gives the file's own mode to the `-wal`
    /// and `-shm` files it makes beside it. No process-wide umask is changed for this: it
    /// would reach every other thread's files.
    static func createPrivately(_ url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            guard code == EEXIST else {
                throw StoreFileError(path: url.path, kind: code == ENOSPC ? .diskFull : .unreadable(String(cString: strerror(code))))
            }
            return
        }
        close(fd)
    }

    /// Throws unless `url` is missing (a new store: nil), a mailfs store, or an SQLite
    /// database with no tables; returns its header. Reads only.
    static func check(_ url: URL) throws -> DatabaseHeader? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int else { return nil }
        let path = url.path
        guard size > 0 else { throw StoreFileError(path: path, kind: .empty) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreFileError(path: path, kind: .unreadable("permission denied"))
        }
        let bytes = [UInt8]((try? handle.read(upToCount: DatabaseHeader.size)) ?? Data())
        try? handle.close()
        guard let header = DatabaseHeader(bytes) else { throw StoreFileError(path: path, kind: .notADatabase) }
        // The header's application id is enough for a store that has one; SQLite itself
        // then finds a truncated or damaged file when it opens it.
        guard header.applicationID != applicationID else { return header }
        do {
            try checkIdentity(path: path)
        } catch let error as DatabaseError {
            throw StoreFileError(error, path: path) ?? error
        }
        return header
    }

    /// A file without mailfs's id: a store made before stores had one (its first
    /// migration is recorded), or a new, empty database; otherwise a foreign one, named by
    /// its application id or its tables.
    private static func checkIdentity(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        try queue.read { db in
            let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            guard id != applicationID else { return }
            guard id == 0 else {
                throw StoreFileError(path: path, kind: .foreign(String(format: "application id 0x%08X", id)))
            }
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
                """)
            guard !tables.isEmpty else { return }
            let migrations = tables.contains("grdb_migrations")
                ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
            guard !migrations.contains(firstMigration) else { return }
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            throw StoreFileError(path: path, kind: .foreign("tables: \(shown)"))
        }
    }

    /// Whether the file system holding `path` has less room than SQLite needs to open a
    /// store (its 32 KiB WAL index and the first WAL frames).
    static func isOutOfSpace(besides path: String) -> Bool {
        var stats = statvfs()
        guard statvfs(URL(fileURLWithPath: path).deletingLastPathComponent().path, &stats) == 0 else { return false }
        return UInt64(stats.f_bavail) * UInt64(stats.f_frsize) < 1 << 20
    }

    /// Marks the store as mailfs's (once; stores made before the application id get it here).
    static func claim(_ pool: DatabasePool) throws {
        let id = try pool.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0 }
        guard id != applicationID else { return }
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = \(applicationID)") }
    }
}
