import Foundation
import GRDB

extension SyncStore {
    /// The next batch to apply, or when the first waiting change is due: rows go in the
    /// account's order, except that one waiting to be retried holds back only the rows
    /// that depend on it (`ChangeOrder`).
    public func dueChanges(accountId: Int64, now: Date = Date()) throws -> (batch: [JournalChange], nextDue: Date?) {
        try store.pool.read { db in
            let rows = try JournalChange
                .filter(Column("accountId") == accountId && Column("state") == ChangeState.pending.rawValue)
                .order(Column("id")).limit(ChangeBatch.maximum).fetchAll(db)
            let (runnable, nextDue) = ChangeOrder.runnable(rows, now: now)
            let batch = ChangeBatch.next(runnable)
            return (batch, batch.isEmpty ? nextDue : nil)
        }
    }

    /// What happened to one row, and what the server said.
    public struct ChangeOutcome: Sendable {
        public var id: Int64
        public var event: ChangeStateMachine.Event
        public var targetUID: Int64?
        public var folderName: String?
        public var delimiter: String?
        /// The message was no longer on the server: its local arrival is dropped too.
        public var gone: Bool

        public init(id: Int64, event: ChangeStateMachine.Event, targetUID: Int64? = nil,
                    folderName: String? = nil, delimiter: String? = nil, gone: Bool = false) {
            self.id = id
            self.gone = gone
            self.event = event
            self.targetUID = targetUID
            self.folderName = folderName
            self.delimiter = delimiter
        }
    }

    /// Feeds events to the state machine and carries out its decisions, all in one
    /// transaction. Returns the decisions (for `.log`), keyed by row.
    @discardableResult
    public func transition(_ outcomes: [ChangeOutcome], machine: ChangeStateMachine,
                           now: Date = Date()) throws -> [(JournalChange, ChangeStateMachine.Decision)] {
        try store.pool.write { db in
            var decisions: [(JournalChange, ChangeStateMachine.Decision)] = []
            var finishedAccounts = Set<Int64>()
            for outcome in outcomes {
                guard var row = try JournalChange.fetchOne(db, id: outcome.id) else { continue }
                let decision = machine.decide(row.state, attempts: row.attempts, interrupted: row.interrupted,
                                              event: outcome.event, now: now)
                let finisher = JournalFinisher(db: db)
                switch decision {
                case .update(let state, let attempts, let notBefore, let interrupted, let error):
                    row.state = state
                    row.attempts = attempts
                    row.notBefore = notBefore
                    row.interrupted = interrupted
                    if let error { row.lastError = error }
                    try row.update(db, columns: ["state", "attempts", "notBefore", "interrupted", "lastError"])
                case .finish:
                    try finisher.finish(row, result: .init(targetUID: outcome.targetUID, folderName: outcome.folderName,
                                                           delimiter: outcome.delimiter, gone: outcome.gone))
                    finishedAccounts.insert(row.accountId)
                case .revert:
                    try finisher.revert(row)
                case .ignore:
                    break
                }
                decisions.append((row, decision))
            }
            // A finished deletion may have removed its message: its thread is settled with it.
            for accountId in finishedAccounts { _ = try MailStore.rethread(db, accountId: accountId) }
            return decisions
        }
    }

    /// At start-up: rows a killed process was applying are pending again, marked
    /// interrupted so the applier checks where the message is before acting.
    public func recoverInterrupted(accountId: Int64, machine: ChangeStateMachine) throws -> Int {
        let ids = try store.pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM change WHERE accountId = ? AND state = 'applying'",
                               arguments: [accountId])
        }
        try transition(ids.map { ChangeOutcome(id: $0, event: .restarted) }, machine: machine)
        return ids.count
    }

    /// The message an APPEND row carries (rows are read without it).
    public func appendContent(changeId: Int64) throws -> [UInt8]? {
        try store.pool.read { db in
            try Data.fetchOne(db, sql: "SELECT raw FROM change WHERE id = ?", arguments: [changeId]).map { [UInt8]($0) }
        }
    }

    /// Where a flag change goes: every visible association with a server UID.
    public func flagTargets(emailId: Int64) throws -> [(folder: FolderRecord, uid: Int64)] {
        try store.pool.read { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT f.folderId, f.imapUID FROM emailFolder f
                WHERE f.emailId = ? AND f.imapUID > 0 AND f.pending IS NOT \(PendingLink.leaving.sql) ORDER BY f.folderId
                """), arguments: [emailId])
            let folder = try db.cachedStatement(sql: "SELECT * FROM folder WHERE id = ?")
            return try rows.compactMap { row in
                try FolderRecord.fetchOne(folder, arguments: [row[0] as Int64]).map { (folder: $0, uid: row[1] as Int64) }
            }
        }
    }

    /// The UID the message has in the folder now (a placeholder gets numbered once the
    /// server says); nil when it is no longer there.
    public func currentUID(emailId: Int64, folderId: Int64) throws -> Int64? {
        try store.pool.read { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT imapUID FROM emailFolder WHERE emailId = ? AND folderId = ?"),
                               arguments: [emailId, folderId])
        }
    }
}
