import Foundation
import GRDB
import MailCore

/// One rethread's walk over the groups of the account, or of the part of it that changed
/// (`RethreadScope`), a chunk at a time (`GroupChunking`):
/// each group keeps the oldest of its messages' threads that no earlier group claimed, or
/// gets a new thread named after its root, and its messages move there. Groups are
/// visited in `ThreadGrouper`'s order, so which thread survives and which name a new
/// thread gets do not depend on the chunk size.
///
/// A group that is already its thread (`CurrentThreads.thread(holdingExactly:)`, and the
/// thread's summary counts as many messages) is only claimed: its messages' summary
/// columns never change once stored, but for `isRead`, whose every write recounts its
/// thread's unread messages, so settling it again would write nothing. No other group can
/// hold one of its messages, so skipping it does not change what the others keep.
struct Rethreading {
    let accountId: Int64
    private let current: CurrentThreads
    /// The message count each thread's summary says.
    private let summaryCounts: [Int64: Int]
    /// The threads this rethread regroups the messages of: the ones no group claims are
    /// deleted.
    private let threadsBefore: Set<Int64>
    private var claimed = Set<Int64>()
    /// Threads created, changed or deleted.
    private var touched = Set<Int64>()
    /// Messages to move, with their new thread: written by `finish` in the order of their
    /// ids, which is the order of the table's pages (a group's messages are spread over
    /// the whole table; moved group by group, a new import's rethread read and wrote
    /// pages at random through the writer's small page cache).
    private var moves: [(emailId: Int64, threadId: Int64)] = []

    /// `threads`: the threads whose messages the groups hold, nil for every thread of the
    /// account (a whole-account pass).
    init(_ db: Database, accountId: Int64, current: CurrentThreads, threads: Set<Int64>?) throws {
        self.accountId = accountId
        self.current = current
        var counts: [Int64: Int] = [:]
        if let threads {
            // By id (`+accountId` keeps SQLite off the account's index of names).
            for slice in Array(threads).sorted().inSQLSlices {
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT id, messageCount FROM thread WHERE +accountId = ? AND id IN (\(databaseQuestionMarks(count: slice.count)))
                    """, arguments: StatementArguments([accountId] + slice))
                while let row = try rows.next() { counts[row[0]] = row[1] }
            }
        } else {
            let rows = try Row.fetchCursor(db, sql: "SELECT id, messageCount FROM thread WHERE accountId = ?",
                                           arguments: [accountId])
            while let row = try rows.next() { counts[row[0]] = row[1] }
        }
        threadsBefore = Set(counts.keys)
        summaryCounts = counts
    }

    /// Claims the chunk's groups that are their thread already; reads the other groups'
    /// messages and the threads they are in, then settles each of them.
    mutating func apply(_ chunk: ArraySlice<[Int64]>, _ db: Database) throws {
        var unsettled: [[Int64]] = []
        for group in chunk {
            if let thread = current.thread(holdingExactly: group), summaryCounts[thread] == group.count {
                claimed.insert(thread)
            } else {
                unsettled.append(group)
            }
        }
        guard !unsettled.isEmpty else { return }
        let members = try ThreadMember.fetch(db, ids: unsettled.flatMap { $0 })
        let threads = try threadRecords(db, ids: Set(members.values.compactMap(\.threadId)))
        for group in unsettled {
            try settle(group.compactMap { members[$0] }, threads: threads, db)
        }
    }

    /// Moves the messages, deletes the threads no group claimed, and marks the account's
    /// threads settled; returns the threads touched.
    mutating func finish(_ db: Database) throws -> Set<Int64> {
        moves.sort { $0.emailId < $1.emailId }
        try ThreadWrites.move(moves, db)
        moves = []
        let orphans = threadsBefore.subtracting(claimed)
        if !orphans.isEmpty {
            try ThreadRecord.deleteAll(db, keys: orphans)
            touched.formUnion(orphans)
        }
        try db.cachedStatement(sql: "UPDATE thread SET isStale = 0 WHERE accountId = ? AND isStale")
            .execute(arguments: [accountId])
        return touched
    }

    private func threadRecords(_ db: Database, ids: Set<Int64>) throws -> [Int64: ThreadRecord] {
        var records: [Int64: ThreadRecord] = [:]
        for slice in Array(ids).inSQLSlices {
            for record in try ThreadRecord.filter(keys: slice).filter(Column("accountId") == accountId).fetchAll(db) {
                records[record.id ?? 0] = record
            }
        }
        return records
    }

    /// One group: its thread (kept or new) with fresh metadata, and its messages in it.
    private mutating func settle(_ messages: [ThreadMember], threads: [Int64: ThreadRecord],
                                 _ db: Database) throws {
        guard let summary = ThreadMetadata(messages: messages.map(\.summary)),
              let root = messages.first(where: { $0.id == summary.rootID }) else { return }
        let threadId: Int64
        // The oldest thread of the group not taken by another group yet (a filter of the
        // group's few ids: `Set.subtracting(claimed)` walked all claimed ids, per group,
        // which made rethreading quadratic in the account's threads).
        if let keep = messages.compactMap(\.threadId).filter({ !claimed.contains($0) }).min(),
           var thread = threads[keep] {
            threadId = keep
            if summary.apply(to: &thread) {
                try ThreadWrites.updateSummary(of: thread, db)
                touched.insert(threadId)
            }
        } else {
            var thread = try summary.newThread(accountId: accountId, rootDate: root.date) { name in
                try ThreadWrites.isNameTaken(name, accountId: accountId, db)
            }
            try ThreadWrites.insert(&thread, db)
            threadId = thread.id ?? 0
            touched.insert(threadId)
        }
        claimed.insert(threadId)
        let moved = messages.filter { $0.threadId != threadId }.map(\.id)
        if !moved.isEmpty {
            moves += moved.map { ($0, threadId) }
            touched.insert(threadId)
            touched.formUnion(messages.compactMap(\.threadId))
        }
    }
}
