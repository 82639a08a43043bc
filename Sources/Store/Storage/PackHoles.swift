import Foundation
import GRDB
import Synchronization

/// Gives back the pack's space that deleted messages left, recorded as `packHole` rows by
/// the deleting transaction (`PackedContent`).
///
/// A pass that cannot punch says why in `problem`, which the root `.status` shows until a
/// pass succeeds: a file system without hole punching keeps deleted mail's space in use
/// (its rows go, retrying cannot help), any other failure keeps the rows for the next pass
/// (the next deleting commit, or the next start).
///
/// A region is punched only once its deletion is durable: the store commits with
/// `synchronous = NORMAL`, so a commit not yet synced could be undone by a power cut, and
/// its message would come back with its bytes gone. The WAL is synced first, which makes
/// every commit it holds durable (a checkpoint syncs the WAL before it copies anything out).
///
/// The writer's commits that add holes schedule a pass a second later (`delay`), on a queue
/// of its own: a reader that looked a message up just before it was deleted has read its
/// bytes by then. A hole an open file still reads is left to a pass scheduled when the file
/// closes (`PackReaders`). Opening the store runs one too, for holes a stopped process left.
final class PackHoles: TransactionObserver, @unchecked Sendable {
    static let delay: TimeInterval = 1

    private let pool: DatabasePool
    private let pack: MessagePack
    private let walPath: String
    private let queue = DispatchQueue(label: "mailfs.pack-holes", qos: .utility)
    /// A pass is waiting on `queue`; commits meanwhile need no other.
    private let scheduled = Mutex(false)
    /// The transaction under way added a hole. Only the writer's queue touches it.
    private var added = false
    /// Why the last pass that had holes to punch could not punch them all; nil once one could.
    private let failure = Mutex<String?>(nil)
    /// Set by `stop`: the store is closing, no pass begins.
    private let stopped = Mutex(false)

    var problem: String? { failure.withLock { $0 } }

    init(pool: DatabasePool, pack: MessagePack, databasePath: String) {
        self.pool = pool
        self.pack = pack
        walPath = databasePath + "-wal"
    }

    /// Starts observing the writer's commits, and schedules a pass for holes left by
    /// processes before this one.
    func start() {
        pool.add(transactionObserver: self)
        schedule()
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .insert(let table) = eventKind { return table == "packHole" }
        return false
    }

    func databaseDidChange(with event: DatabaseEvent) { added = true }
    func databaseDidRollback(_ db: Database) { added = false }

    func databaseDidCommit(_ db: Database) {
        guard added else { return }
        added = false
        schedule()
    }

    func schedule() {
        let isNew = scheduled.withLock { scheduled in defer { scheduled = true }; return !scheduled }
        guard isNew else { return }
        // Weakly: a store closed meanwhile (its observer gone with it) needs no pass.
        queue.asyncAfter(deadline: .now() + Self.delay) { [weak self] in
            guard let self, !stopped.withLock({ $0 }) else { return }
            scheduled.withLock { $0 = false }
            // A pass that fails (the disk, a busy store) leaves its rows for the next one,
            // and its reason in `problem`.
            try? punchAll()
        }
    }

    /// Waits for a pass under way; none begins after.
    func stop() {
        stopped.withLock { $0 = true }
        queue.sync {}
    }

    /// Punches every recorded hole whose deletion is durable, then forgets them. Safe to run
    /// twice on the same rows (another process, a crash between the two steps): a punched
    /// region is never written again. While a backup copies the pack, it punches nothing
    /// and tries again later.
    func punchAll() throws {
        guard pack.beginPunching() else {
            schedule()
            return
        }
        defer { pack.endPunching() }
        do {
            switch try punchRecordedHoles() {
            case .nothingToPunch: break
            case .punched: failure.withLock { $0 = nil }
            case .unsupported(let error): failure.withLock { $0 = Self.describe(error) }
            }
        } catch {
            failure.withLock { $0 = Self.describe(error) }
            throw error
        }
    }

    private enum Pass {
        case nothingToPunch
        case punched
        /// The file system cannot punch holes: the rows are gone, the space stays in use.
        case unsupported(PackError)
    }

    /// One pass over at most 10,000 holes; another is scheduled when there were that many.
    /// A failure other than `unsupported` stops the pass and keeps the rows not punched.
    private func punchRecordedHoles() throws -> Pass {
        let holes = try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT rowid, byteOffset, byteCount FROM packHole ORDER BY rowid LIMIT 10000")
        }
        guard !holes.isEmpty else { return .nothingToPunch }
        // After reading the holes, never before: see PackReaders.
        pack.readers.beginPass()
        try syncWAL()
        var done: [Int64] = []
        var unsupported: PackError?
        var failed: PackError?
        for hole in holes {
            let offset: Int64 = hole[1]
            let count: Int64 = hole[2]
            // An open file reads it: its row stays, for the pass its closing schedules.
            if pack.readers.isHeld(offset..<(offset + count)) { continue }
            do {
                try pack.punch(offset..<(offset + count))
            } catch where error.isUnsupported {
                unsupported = error
            } catch {
                failed = error
                break
            }
            done.append(hole[0])
        }
        try pool.write { db in
            for slice in done.inSQLSlices {
                try db.execute(sql: "DELETE FROM packHole WHERE rowid IN (\(databaseQuestionMarks(count: slice.count)))",
                               arguments: StatementArguments(slice))
            }
        }
        if let failed { throw failed }
        if holes.count == 10000 { schedule() }
        return unsupported.map(Pass.unsupported) ?? .punched
    }

    private static func describe(_ error: any Error) -> String {
        "the space of deleted mail in \(MessagePack.fileName) is not given back: \(error)"
    }

    /// Makes every commit in the WAL durable. No WAL file: everything was checkpointed
    /// into the database, and synced there.
    private func syncWAL() throws {
        let fd = open(walPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return }
            throw PackError(operation: "open", path: walPath, code: errno)
        }
        defer { close(fd) }
        do {
            try FileRange.syncData(fd)
        } catch {
            throw PackError(operation: "fdatasync", path: walPath, code: error.code)
        }
    }
}
