import Dispatch
import Foundation
import GRDB
import Synchronization

/// Writes the full-text index (`SearchIndexFile`) on a queue of its own, after the store's
/// writer has committed the messages: the store's transactions no longer pay for FTS5,
/// and an import or a sync parses, stores and indexes at the same time (docs/DECISIONS.md,
/// "The full-text index in a file of its own").
///
/// What keeps the index true to the store:
/// - new messages: `add`, called with the rows of a committed transaction;
/// - deleted messages: a trigger on `email` records their ids in the store's
///   `searchRemoval` table in the deleting transaction itself; every job, and every wait
///   for the index, ends by removing those rows from the index, then the ids from
///   `searchRemoval` (until then a search cannot show them: it reads the store's rows);
/// - anything lost on the way (a crash between a commit and its index job, an index file
///   removed or damaged, a store from before the index had its own file, a job that
///   failed): `catchUp`, queued when the store opens and by a `flush` that reports a
///   failure, indexes what the index lacks from the stored messages.
/// A search waits for the jobs queued before it (`waitUntilWritten`), so a process sees its
/// own new mail at once; another process's, once that process's job commits.
///
/// Never call `add`, `waitUntilWritten` or `flush` inside a transaction of the store: a job
/// may be waiting for the store's writer.
final class SearchIndexWriter: Sendable {
    let index: DatabaseQueue
    private let store: DatabasePool
    /// Where the store keeps raw messages, parsed again when their rows are missing.
    private let pack: MessagePack
    private let jobs = DispatchQueue(label: "mailfs.search-index")
    /// Jobs queued and not yet done, at most 4: a store writer faster than the index waits
    /// rather than holding every batch's text in memory.
    private let backlog = DispatchSemaphore(value: 4)
    /// The first failure since the last `flush`; the rows it lost come back with `catchUp`.
    private let failure = Mutex<(any Error)?>(nil)
    /// Set by `stop`: jobs not yet begun do nothing, and a catch-up ends after its chunk.
    private let stopped = Atomic(false)

    init(index: DatabaseQueue, store: DatabasePool, pack: MessagePack) {
        self.index = index
        self.store = store
        self.pack = pack
    }

    /// Indexes the rows of messages just committed to the store.
    func add(_ entries: [SearchEntry]) {
        guard !entries.isEmpty else { return }
        submit { [self] in
            try index.write { db in
                for entry in entries { try entry.write(db, replacing: true) }
            }
        }
    }

    /// Queues the comparison of the index with the store and the indexing of what it lacks.
    func catchUp() {
        submit { [self] in
            let gaps = try store.read { db in try SearchIndexGaps(db) }
            if !gaps.stale.isEmpty { try remove(gaps.stale) }
            for start in stride(from: 0, to: gaps.missing.count, by: 100) where !stopped.load(ordering: .relaxed) {
                let chunk = gaps.missing[start..<min(start + 100, gaps.missing.count)]
                let entries = try store.read { db in try StoredSearchEntries.entries(emailIds: chunk, pack: pack, db: db) }
                // Never over a row written meanwhile from the message itself (another process's job).
                try index.write { db in
                    for entry in entries { try entry.write(db, replacing: false) }
                }
            }
        }
    }

    /// Returns once every job queued before the call is done and the messages deleted from
    /// the store so far are out of the index.
    func waitUntilWritten() {
        submit {}
        jobs.sync {}
    }

    /// `waitUntilWritten`, then the first failure of a job since the last flush, if any.
    /// After a failure a catch-up is queued, so a mount that stays up gets back the rows a
    /// failed job lost (a full disk, a lock held past the busy timeout) at its next flush,
    /// not only at its next start; a failure that lasts is retried once per flush, not in a loop.
    func flush() throws {
        waitUntilWritten()
        if let error = failure.withLock({ error in defer { error = nil }; return error }) {
            catchUp()
            throw error
        }
    }

    func releaseMemory() {
        index.releaseMemory()
    }

    /// Waits for the job under way and drops the others: the store is closing. What they
    /// would have written, the next open's catch-up writes.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        jobs.sync {}
    }

    private func submit(_ work: @escaping @Sendable () throws -> Void) {
        backlog.wait()
        jobs.async { [self] in
            defer { backlog.signal() }
            guard !stopped.load(ordering: .relaxed) else { return }
            do {
                try work()
                try applyRemovals()
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
    }

    /// Takes the messages deleted from the store out of the index, then out of `searchRemoval`.
    private func applyRemovals() throws {
        while true {
            let ids = try store.read { db in
                try Int64.fetchAll(db, sql: "SELECT emailId FROM searchRemoval ORDER BY emailId LIMIT 1000")
            }
            guard !ids.isEmpty else { return }
            try remove(ids)
            try store.write { db in
                for slice in ids.inSQLSlices {
                    try db.execute(sql: "DELETE FROM searchRemoval WHERE emailId IN (\(databaseQuestionMarks(count: slice.count)))",
                                   arguments: StatementArguments(slice))
                }
            }
        }
    }

    private func remove(_ ids: [Int64]) throws {
        try index.write { db in
            for slice in ids.inSQLSlices {
                try db.execute(sql: "DELETE FROM emailSearch WHERE rowid IN (\(databaseQuestionMarks(count: slice.count)))",
                               arguments: StatementArguments(slice))
            }
        }
    }
}
