import Foundation
import GRDB
import MailCore

extension MailStore {
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

    static func rethread(_ db: Database, accountId: Int64, extent: RethreadExtent, chunking: GroupChunking,
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
