import Foundation
import GRDB

extension TreeStore {
    /// `echo confirm-deletes|cancel-deletes > .control`. Returns how many messages.
    public func resolveHeld(accountId: Int64, confirm: Bool, machine: ChangeStateMachine) throws -> Int {
        let (ids, messages) = try store.pool.read { db in
            (try Int64.fetchAll(db, sql: "SELECT id FROM change WHERE accountId = ? AND state = 'held' ORDER BY id",
                                arguments: [accountId]),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM change WHERE accountId = ? AND state = 'held' AND isDeletion = 1",
                              arguments: [accountId]) ?? 0)
        }
        try store.sync.transition(ids.map { SyncStore.ChangeOutcome(id: $0, event: confirm ? .confirm : .cancel) }, machine: machine)
        return messages
    }

    /// `pending_changes` and `held_deletes` of `.status`.
    public func journalCounts(accountId: Int64) throws -> (pending: Int, heldDeletes: Int) {
        try store.pool.read { db in
            let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT COALESCE(SUM(state IN ('pending', 'applying')), 0),
                       COALESCE(SUM(state = 'held' AND isDeletion = 1), 0)
                FROM change WHERE accountId = ?
                """), arguments: [accountId])
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    /// The deletions the guard holds: the count in the guard's `.log` line, counted through
    /// an index rather than over the whole journal.
    public func heldDeletions(accountId: Int64) throws -> Int {
        try store.treeRead { db in
            try Int.fetchOne(db.cachedStatement(sql: """
                SELECT COUNT(*) FROM change WHERE accountId = ? AND state = 'held' AND isDeletion = 1
                """), arguments: [accountId]) ?? 0
        }
    }

    /// Whether a message has a change not yet applied (`user.mailfs.pending`).
    public func hasPendingChange(emailId: Int64) throws -> Bool {
        try store.pool.read { db in
            try Bool.fetchOne(db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM change WHERE emailId = ? AND state IN ('pending', 'applying', 'held'))
                """), arguments: [emailId]) ?? false
        }
    }

    /// Imported accounts: pending rows (confirmed deletions) finish with no server.
    public func finishPendingLocally(accountId: Int64) throws {
        try store.pool.write { db in
            let rows = try JournalChange
                .filter(Column("accountId") == accountId && Column("state") == ChangeState.pending.rawValue)
                .order(Column("id")).fetchAll(db)
            for row in rows { try JournalFinisher(db: db).finishOffline(row) }
            _ = try MailStore.rethread(db, accountId: accountId)
        }
    }
}
