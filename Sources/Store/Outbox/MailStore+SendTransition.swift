import Foundation
import GRDB

/// The one place where a send-queue row changes state: events go through
/// `SendStateMachine` and its decision is carried out in the same transaction, so a row
/// another thread changed meanwhile (`rm`, `touch`) is decided on as it is now.
extension MailStore {
    /// Feeds `event` to the machine for row `id` and carries out the decision, which it
    /// returns (for `.log` and errno). A row gone meanwhile is `.ignore`d. The tree's events
    /// and start-up do not depend on the delays, so they may use the default machine.
    @discardableResult
    public func transition(send id: Int64, _ event: SendStateMachine.Event, machine: SendStateMachine = SendStateMachine(),
                           now: Date = Date()) throws -> SendStateMachine.Decision {
        try pool.write { db in try Self.transition(send: id, event, machine: machine, now: now, db: db) }
    }

    /// At start-up: a message left `sending` by a run that died had no acceptance from the
    /// server on record, so it is queued again. Returns how many.
    public func recoverInterruptedSends(accountId: Int64, machine: SendStateMachine) throws -> Int {
        try transitionAll(in: .sending, accountId: accountId, .restarted, machine: machine)
    }

    /// At start-up, before `recoverInterruptedSends`: messages still in their undo delay
    /// when the previous run died are held, not sent (docs/REQUIREMENTS.md, product spec
    /// §5.5.2). Returns how many.
    public func holdUndoWindowSends(accountId: Int64, machine: SendStateMachine) throws -> Int {
        try transitionAll(in: .queued, accountId: accountId, .restarted, machine: machine)
    }

    /// Called on the event loop when the SMTP server accepted `id`: one append, no SQLite.
    public func noteAccepted(send id: Int64) {
        acceptanceLog.record(id)
    }

    /// At start-up, before any sender runs: messages a server accepted just before the
    /// previous run died (their state still says `sending`) are accepted, never sent again.
    /// Returns how many.
    @discardableResult
    public func recoverAcceptedSends() throws -> Int {
        let ids = acceptanceLog.recordedIds()
        let accepted = try pool.write { db in
            try ids.count { id in
                try Self.transition(send: id, .accepted(note: nil), machine: SendStateMachine(), now: Date(), db: db)
                    != .ignore
            }
        }
        acceptanceLog.clear()
        return accepted
    }

    /// At start-up: drafts of a run that died were never acknowledged to their writer.
    public func removeDrafts() throws {
        try transitionAll(in: .draft, accountId: nil, .abandon, machine: SendStateMachine())
    }

    /// `event` for every row in `state` (of one account, or all), in one transaction;
    /// returns how many changed.
    @discardableResult
    private func transitionAll(in state: SendState, accountId: Int64?, _ event: SendStateMachine.Event,
                               machine: SendStateMachine, now: Date = Date()) throws -> Int {
        try pool.write { db in
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM sendQueue WHERE state = ? AND (? IS NULL OR accountId = ?)",
                                         arguments: [state.rawValue, accountId, accountId])
            return try ids.count { id in
                try Self.transition(send: id, event, machine: machine, now: now, db: db) != .ignore
            }
        }
    }

    static func transition(send id: Int64, _ event: SendStateMachine.Event, machine: SendStateMachine,
                           now: Date, db: Database) throws -> SendStateMachine.Decision {
        guard let item = try outboxItem(id: id, db: db) else { return .ignore }
        let decision = machine.decide(item, event: event, now: now)
        switch decision {
        case .update(let state, let attempts, let notBefore, let error, let createdAt):
            try db.execute(sql: """
                UPDATE sendQueue SET state = ?, attempts = ?, notBefore = ?, lastError = ?, createdAt = ? WHERE id = ?
                """, arguments: [state.rawValue, attempts, notBefore, error, createdAt, id])
        case .accept(let note, let date):
            // The name is freed for new files: the row stays, unlisted, until it is filed.
            try db.execute(sql: """
                UPDATE sendQueue SET state = 'accepted', acceptedAt = ?, lastError = ?, fileName = '.accepted-' || id
                WHERE id = ?
                """, arguments: [date, note, id])
        case .remove:
            try db.execute(sql: "DELETE FROM sendQueue WHERE id = ?", arguments: [id])
        case .wait, .refuse, .ignore:
            break
        }
        return decision
    }
}
