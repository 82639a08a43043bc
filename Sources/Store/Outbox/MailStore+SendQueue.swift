import Foundation
import GRDB

/// The durable send queue behind `outbox/` (FR-SYNC-07/14): rows, their bytes and the
/// queries. Every state change is one committed transaction through `SendStateMachine`
/// (`MailStore+SendTransition.swift`), so a crash at any point leaves a state the next run
/// can resume.
extension MailStore {
    static func outboxItem(accountId: Int64, fileName: String, db: Database) throws -> OutboxItem? {
        try OutboxItem.fetchOne(db, sql: """
            SELECT \(OutboxItem.columns) FROM sendQueue
            WHERE accountId = ? AND fileName = ? AND state NOT IN ('accepted', 'filing')
            """, arguments: [accountId, fileName])
    }

    static func outboxItem(id: Int64, db: Database) throws -> OutboxItem? {
        try OutboxItem.fetchOne(db, sql: "SELECT \(OutboxItem.columns) FROM sendQueue WHERE id = ?", arguments: [id])
    }
}
