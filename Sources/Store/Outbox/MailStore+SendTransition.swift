import Foundation
import GRDB

/// The one place where a send-queue row changes state: events go through
/// `SendStateMachine` and its decision is carried out in the same transaction, so a row
/// another thread changed meanwhile (`rm`, `touch`) is decided on as it is now.
extension MailStore {
    /// Adds `recipients` to the row's `deliveredTo`, kept in envelope order.
    static func addDelivered(_ recipients: [String], to id: Int64, db: Database) throws {
        guard !recipients.isEmpty, let item = try outboxItem(id: id, db: db) else { return }
        let delivered = Set(item.delivered + recipients)
        let deliveredTo = item.recipients.filter { delivered.contains($0) }.joined(separator: "\n")
        guard deliveredTo != item.deliveredTo else { return }
        try db.execute(sql: "UPDATE sendQueue SET deliveredTo = ? WHERE id = ?", arguments: [deliveredTo, id])
    }

    /// `event` for every row in `state` (of one account, or all), in one transaction;
    /// returns how many changed.
    @discardableResult
    func transitionAll(in state: SendState, accountId: Int64?, _ event: SendStateMachine.Event,
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
