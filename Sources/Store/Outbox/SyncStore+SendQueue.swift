import Foundation
import GRDB

extension SyncStore {
    /// Commits a draft to the queue with its prepared bytes and envelope, in one transaction
    /// with the `submit` transition; when this returns it survives `kill -9`. False when the
    /// draft is gone (removed meanwhile).
    public func enqueue(draft id: Int64, _ message: OutgoingMessage, undoDelay: TimeInterval,
                        now: Date = Date()) throws -> Bool {
        try store.pool.write { db in
            guard case .update = try MailStore.transition(send: id, .submit(undoDelay: undoDelay), machine: .untimed,
                                                     now: now, db: db) else { return false }
            try db.execute(sql: """
                UPDATE sendQueue SET fileName = ?, raw = ?, envelopeFrom = ?, envelopeTo = ? WHERE id = ?
                """, arguments: [message.fileName, Data(message.data), message.envelopeFrom,
                                 message.recipients.joined(separator: "\n"), id])
            return true
        }
    }

    /// The oldest message still to send (FIFO: nothing is sent before an older queued
    /// message of the account, even one waiting for a retry).
    public func oldestQueued(accountId: Int64) throws -> OutboxItem? {
        try store.pool.read { db in
            try OutboxItem.fetchOne(db, sql: """
                SELECT \(OutboxItem.columns) FROM sendQueue
                WHERE accountId = ? AND state = 'queued' ORDER BY id LIMIT 1
                """, arguments: [accountId])
        }
    }

    /// Messages the server accepted whose Sent copy is still to be appended (or to be
    /// found in Sent, when its APPEND was under way).
    public func acceptedItems(accountId: Int64) throws -> [OutboxItem] {
        try store.pool.read { db in
            try OutboxItem.fetchAll(db, sql: """
                SELECT \(OutboxItem.columns) FROM sendQueue
                WHERE accountId = ? AND state IN ('accepted', 'filing') ORDER BY id
                """, arguments: [accountId])
        }
    }
}
