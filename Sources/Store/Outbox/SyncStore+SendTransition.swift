import Foundation
import GRDB

extension SyncStore {
    /// At start-up: a message left `sending` by a run that died had not reached every
    /// recipient (`recoverDeliveries` ran first): it is queued again, for the others.
    /// Returns how many.
    public func recoverInterruptedSends(accountId: Int64, machine: SendStateMachine) throws -> Int {
        try store.transitionAll(in: .sending, accountId: accountId, .restarted, machine: machine)
    }

    /// At start-up, before `recoverInterruptedSends`: messages still in their undo delay
    /// when the previous run died are held, not sent (docs/REQUIREMENTS.md, product spec
    /// §5.5.2). Returns how many.
    public func holdUndoWindowSends(accountId: Int64, machine: SendStateMachine) throws -> Int {
        try store.transitionAll(in: .queued, accountId: accountId, .restarted, machine: machine)
    }

    /// Called on the event loop when the SMTP server accepted `id` for `recipients`: one
    /// append, no SQLite. Throws when the acceptance log cannot be written: the caller then
    /// records them with `recordDelivered`, or a crash before the attempt's end would send
    /// the message to them again.
    public func noteDelivered(send id: Int64, to recipients: [String]) throws {
        try store.acceptanceLog.record(id, recipients: recipients)
    }

    /// `noteDelivered`'s stand-in when the acceptance log cannot be written: the recipients
    /// go to the row's `deliveredTo` at once, waiting for the writer if it is busy.
    public func recordDelivered(send id: Int64, to recipients: [String]) throws {
        try store.pool.write { db in try MailStore.addDelivered(recipients, to: id, db: db) }
    }

    /// At start-up, before any sender runs: the recipients servers took messages for just
    /// before the previous run died (SQLite not yet told) are added to their rows, so no
    /// attempt sends to them again; a message found `sending` that reached them all (by the
    /// acceptance log or `recordDelivered`) is accepted. Returns how many were accepted.
    /// Throws when the acceptance log cannot be read or emptied: a message it may name
    /// would otherwise be sent again.
    @discardableResult
    public func recoverDeliveries() throws -> Int {
        let entries = try store.acceptanceLog.entries()
        let accepted = try store.pool.write { db in
            for entry in entries {
                guard let item = try MailStore.outboxItem(id: entry.id, db: db) else { continue }
                try MailStore.addDelivered(entry.recipients ?? item.recipients, to: entry.id, db: db)
            }
            let sending = try Int64.fetchAll(db, sql: "SELECT id FROM sendQueue WHERE state = ?",
                                             arguments: [SendState.sending.rawValue])
            return try sending.count { id in
                try MailStore.transition(send: id, .deliveredBeforeRestart, machine: .untimed, now: Date(), db: db)
                    != .ignore
            }
        }
        try store.acceptanceLog.clear()
        return accepted
    }
}
