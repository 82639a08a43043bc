import Foundation
import GRDB
import Synchronization

/// Notices commits made by any other connection or process (`mailfs import` beside a
/// mount, the sync engine's writer, the full-text index's writer) through SQLite's
/// `data_version` of the store and of the index, which only a
/// dedicated connection can read meaningfully: it is per connection. Commits of this
/// process's own writer also wake `waitForCommit` at once, so new mail a sync stores is
/// shown without waiting for the next poll.
public final class ChangeMonitor: Sendable {
    private let queue: DatabaseQueue
    private let lastVersion: Mutex<Int>
    private let commits = CommitSignal()

    /// `writers`: this process's connections whose commits wake `waitForCommit`.
    init(databasePath: String, searchIndexPath: String, writers: [any DatabaseWriter]) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in
            try db.execute(sql: "ATTACH DATABASE ? AS \(SearchIndexFile.schema)", arguments: [searchIndexPath])
        }
        queue = try DatabaseQueue(path: databasePath, configuration: configuration)
        lastVersion = Mutex(try queue.read(Self.version))
        // Observed for as long as this monitor lives (GRDB holds the observer weakly).
        for writer in writers { writer.add(transactionObserver: commits) }
    }

    /// The store's and the index's versions together: the index is written after the store.
    private static func version(_ db: Database) throws -> Int {
        let store = try Int.fetchOne(db, sql: "PRAGMA main.data_version") ?? 0
        let index = try Int.fetchOne(db, sql: "PRAGMA \(SearchIndexFile.schema).data_version") ?? 0
        return store &* 1_000_003 &+ index
    }

    /// True once for every batch of commits since the previous call.
    public func hasChanged() -> Bool {
        guard let version = try? queue.read(Self.version) else { return false }
        return lastVersion.withLock { last in
            defer { last = version }
            return version != last
        }
    }

    /// Blocks the calling thread until this process commits to the store (at once if it
    /// did since the last call) or `timeout` seconds pass. For a thread of its own: never
    /// call it from Swift's cooperative pool.
    public func waitForCommit(timeout: TimeInterval) {
        commits.wait(until: Date(timeIntervalSinceNow: timeout))
    }
}

/// A flag the writer connection raises at every commit and a waiting thread lowers.
/// Observes no statement: SQLite's commit hook alone calls it, at no cost per row.
private final class CommitSignal: TransactionObserver, @unchecked Sendable {
    private let condition = NSCondition()
    /// GUARDED_BY(condition)
    private var committed = false

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidRollback(_ db: Database) {}

    func databaseDidCommit(_ db: Database) {
        condition.lock()
        committed = true
        condition.signal()
        condition.unlock()
    }

    func wait(until deadline: Date) {
        condition.lock()
        defer { condition.unlock() }
        while !committed && condition.wait(until: deadline) {}
        committed = false
    }
}

extension TreeStore {
    public func makeChangeMonitor() throws -> ChangeMonitor {
        try ChangeMonitor(databasePath: store.databaseURL.path, searchIndexPath: store.searchIndex.index.path,
                          writers: [store.pool, store.searchIndex.index])
    }
}
