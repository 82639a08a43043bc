import Foundation
import GRDB
import Synchronization

/// Gives back the pack's space that deleted messages left, recorded as `packHole` rows by
/// the deleting transaction (`PackedContent`).
///
/// A region is punched only once its deletion is durable: the store commits with
/// `synchronous = NORMAL`, so a commit not yet synced could be undone by a power cut, and
/// its message would come back with its bytes gone. The WAL is synced first, which makes
/// every commit it holds durable (a checkpoint syncs the WAL before it copies anything out).
///
/// The writer's commits that add holes schedule a pass a second later (`delay`), on a queue
/// of its own: a reader that looked a message up just before it was deleted has read its
/// bytes by then. Opening the store runs one too, for holes a stopped process left.
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

    private func schedule() {
        let isNew = scheduled.withLock { scheduled in defer { scheduled = true }; return !scheduled }
        guard isNew else { return }
        // Weakly: a store closed meanwhile (its observer gone with it) needs no pass.
        queue.asyncAfter(deadline: .now() + Self.delay) { [weak self] in
            guard let self else { return }
            scheduled.withLock { $0 = false }
            // A pass that fails (the disk, a busy store) leaves the rows for the next one.
            try? punchAll()
        }
    }

    /// Punches every recorded hole whose deletion is durable, then forgets them. Safe to run
    /// twice on the same rows (another process, a crash between the two steps): a punched
    /// region is never written again.
    func punchAll() throws {
        let holes = try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT rowid, byteOffset, byteCount FROM packHole ORDER BY rowid LIMIT 10000")
        }
        guard !holes.isEmpty else { return }
        try syncWAL()
        for hole in holes {
            let offset: Int64 = hole[1]
            let count: Int64 = hole[2]
            pack.punch(offset..<(offset + count))
        }
        let ids = holes.map { $0[0] as Int64 }
        try pool.write { db in
            try db.execute(sql: "DELETE FROM packHole WHERE rowid IN (\(databaseQuestionMarks(count: ids.count)))",
                           arguments: StatementArguments(ids))
        }
        if holes.count == 10000 { schedule() }
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
