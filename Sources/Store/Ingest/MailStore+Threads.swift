import Foundation
import GRDB
import MailCore

extension MailStore {
    /// Recomputes the conversation threads of an account (FR-SYNC-06) after messages
    /// were added or removed. Existing threads keep their id and directory name: when
    /// threads merge, the oldest survives; a new thread is named after its root message.
    /// Returns the ids of threads created, changed or deleted.
    ///
    /// Only what changed is regrouped (`RethreadScope`): the messages without a thread,
    /// the threads that lost one, and the threads the new messages link to. A batch that
    /// is a large part of the account (an import, a first sync) is grouped with the rest
    /// in one whole-account pass instead, which reads every message once rather than
    /// looking up each new message's links.
    ///
    /// Memory stays small next to the account: grouping streams only the threading
    /// headers (`ThreadingRow`), and the summary columns are read a chunk of groups at a
    /// time (`Rethreading`), never every column of every message at once.
    @discardableResult
    public func rethread(accountId: Int64) throws -> Set<Int64> {
        try pool.write { db in try Self.rethread(db, accountId: accountId) }
    }

    /// Whether the account's threads lag behind its messages: a message has no thread
    /// (stored by a sync or an import whose rethread never ran, the process having
    /// stopped between the two) or a thread lost a message. Two index lookups: `+accountId`
    /// keeps SQLite on the thread index, where the store's lack of statistics made it walk
    /// the account's messages, every row of them when none lacked a thread.
    public func owesRethread(accountId: Int64) throws -> Bool {
        try pool.read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM email WHERE threadId IS NULL AND +accountId = ?)
                    OR EXISTS (SELECT 1 FROM thread WHERE accountId = ? AND isStale)
                """, arguments: [accountId, accountId]) ?? false
        }
    }

    /// `rethread(accountId:)` inside a write transaction that added or deleted messages:
    /// the journal's local changes thread what they change before they commit. A few
    /// index lookups when nothing is owed.
    static func rethread(_ db: Database, accountId: Int64) throws -> Set<Int64> {
        try rethread(db, accountId: accountId, extent: .changed, chunking: .standard)
    }

    /// How much of the account a rethread regroups.
    enum RethreadExtent {
        /// What changed (`RethreadScope`), or the whole account when the new messages are a
        /// large part of it.
        case changed
        /// Every message: what tests compare the other with.
        case whole
    }

    /// The rethread with its extent and chunk size given: tests make chunks small to cover
    /// groups spread over many chunks.
    ///
    /// A group whose messages are exactly the messages of one thread, which holds as many
    /// as its summary counts, is that thread already: its summary is left as it is and its
    /// messages are not read (docs/DECISIONS.md, "Rethreading: only what changed is
    /// settled"). `settlingAll` settles every group instead, for tests to compare.
    func rethread(accountId: Int64, extent: RethreadExtent, chunking: GroupChunking,
                  settlingAll: Bool = false) throws -> Set<Int64> {
        try pool.write { db in
            try Self.rethread(db, accountId: accountId, extent: extent, chunking: chunking, settlingAll: settlingAll)
        }
    }

    private static func rethread(_ db: Database, accountId: Int64, extent: RethreadExtent, chunking: GroupChunking,
                                 settlingAll: Bool = false) throws -> Set<Int64> {
        let groups: [[Int64]]
        var current: CurrentThreads
        let threads: Set<Int64>?
        var links = ThreadLinks.Pending()
        if extent == .changed, let unthreaded = try unthreadedUnlessMany(db, accountId: accountId) {
            let scope = try RethreadScope(db, accountId: accountId, unthreaded: unthreaded)
            guard !scope.messages.isEmpty || !scope.threads.isEmpty else { return [] }
            (groups, current, threads) = (scope.groups, scope.current, scope.threads)
            for message in unthreaded { links.add(message) }
        } else {
            (groups, current) = try ThreadingRow.groups(db, accountId: accountId) { links.add($0) }
            threads = nil
        }
        try links.write(db)
        if settlingAll { current = CurrentThreads() }
        var rethreading = try Rethreading(db, accountId: accountId, current: current, threads: threads)
        for chunk in chunking.chunks(of: groups) {
            try rethreading.apply(chunk, db)
        }
        return try rethreading.finish(db)
    }

    /// The account's messages without a thread, or nil when they are more than
    /// `RethreadScope.largestShare` of its messages: a whole-account pass then costs less
    /// than looking up each one's links.
    private static func unthreadedUnlessMany(_ db: Database, accountId: Int64) throws -> [ThreadingInput]? {
        let unthreaded = try Int.fetchOne(db.cachedStatement(sql: """
            SELECT COUNT(*) FROM email WHERE threadId IS NULL AND +accountId = ?
            """), arguments: [accountId]) ?? 0
        if unthreaded == 0 { return [] }
        if unthreaded > RethreadScope.fewMessages {
            let all = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM email WHERE accountId = ?"),
                                       arguments: [accountId]) ?? 0
            if Double(unthreaded) > Double(all) * RethreadScope.largestShare { return nil }
        }
        return try ThreadingRow.unthreaded(db, accountId: accountId)
    }
}
