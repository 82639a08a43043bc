import Foundation
import GRDB

/// The one place where a send-queue row changes state: events go through
/// `SendStateMachine` and its decision is carried out in the same transaction, so a row
/// another thread changed meanwhile (`rm`, `touch`) is decided on as it is now.
extension MailStore {
    /// Adds `recipients` (those the server took the message for in the attempt that ends
    /// with `event`) to the row's `deliveredTo`, then feeds `event` to the machine and
    /// carries out its decision, which it returns (for `.log` and errno), in one transaction.
    /// A row gone meanwhile is `.ignore`d. The tree's events and start-up's do not depend
    /// on the delays: `SendStateMachine.untimed` decides them when no machine is given.
    @discardableResult
    public func transition(send id: Int64, _ event: SendStateMachine.Event, deliveredTo recipients: [String] = [],
                           machine: SendStateMachine = .untimed, now: Date = Date()) throws -> SendStateMachine.Decision {
        try pool.write { db in
            try Self.addDelivered(recipients, to: id, db: db)
            return try Self.transition(send: id, event, machine: machine, now: now, db: db)
        }
    }

    /// At start-up: a message left `sending` by a run that died had not reached every
    /// recipient (`recoverDeliveries` ran first): it is queued again, for the others.
    /// Returns how many.
    public func recoverInterruptedSends(accountId: Int64, machine: SendStateMachine) throws -> Int {
        try transitionAll(in: .sending, accountId: accountId, .restarted, machine: machine)
    }

    /// At start-up, before `recoverInterruptedSends`: messages still in their undo delay
    /// when the previous run died are held, not sent (docs/REQUIREMENTS.md, product spec
    /// §5.5.2). Returns how many.
    public func holdUndoWindowSends(accountId: Int64, machine: SendStateMachine) throws -> Int {
        try transitionAll(in: .queued, accountId: accountId, .restarted, machine: machine)
    }

    /// Called on the event loop when the SMTP server accepted `id` for `recipients`: one
    /// append, no SQLite. Throws when the acceptance log cannot be written: the caller then
    /// records them with `recordDelivered`, or a crash before the attempt's end would send
    /// the message to them again.
    public func noteDelivered(send id: Int64, to recipients: [String]) throws {
        try acceptanceLog.record(id, recipients: recipients)
    }

    /// `noteDelivered`'s stand-in when the acceptance log cannot be written: the recipients
    /// go to the row's `deliveredTo` at once, waiting for the writer if it is busy.
    public func recordDelivered(send id: Int64, to recipients: [String]) throws {
        try pool.write { db in try Self.addDelivered(recipients, to: id, db: db) }
    }

    /// At start-up, before any sender runs: the recipients servers took messages for just
    /// before the previous run died (SQLite not yet told) are added to their rows, so no
    /// attempt sends to them again; a message found `sending` that reached them all (by the
    /// acceptance log or `recordDelivered`) is accepted. Returns how many were accepted.
    /// Throws when the acceptance log cannot be read or emptied: a message it may name
    /// would otherwise be sent again.
    @discardableResult
    public func recoverDeliveries() throws -> Int {
        let entries = try acceptanceLog.entries()
        let accepted = try pool.write { db in
            for entry in entries {
                guard let item = try Self.outboxItem(id: entry.id, db: db) else { continue }
                try Self.addDelivered(entry.recipients ?? item.recipients, to: entry.id, db: db)
            }
            let sending = try Int64.fetchAll(db, sql: "SELECT id FROM sendQueue WHERE state = ?",
                                             arguments: [SendState.sending.rawValue])
            return try sending.count { id in
                try Self.transition(send: id, .deliveredBeforeRestart, machine: .untimed, now: Date(), db: db)
                    != .ignore
            }
        }
        try acceptanceLog.clear()
        return accepted
    }

    /// Adds `recipients` to the row's `deliveredTo`, kept in envelope order.
    private static func addDelivered(_ recipients: [String], to id: Int64, db: Database) throws {
        guard !recipients.isEmpty, let item = try outboxItem(id: id, db: db) else { return }
        let delivered = Set(item.delivered + recipients)
        let deliveredTo = item.recipients.filter { delivered.contains($0) }.joined(separator: "\n")
        guard deliveredTo != item.deliveredTo else { return }
        try db.execute(sql: "UPDATE sendQueue SET deliveredTo = ? WHERE id = ?", arguments: [deliveredTo, id])
    }

    /// At start-up: drafts of a run that died were never acknowledged to their writer.
    public func removeDrafts() throws {
        try transitionAll(in: .draft, accountId: nil, .abandon, machine: .untimed)
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
