import Foundation
import GRDB

extension TreeStore {
    /// A new file in outbox/, empty until its writer closes it. nil when the name is taken.
    public func createDraft(accountId: Int64, fileName: String, now: Date = Date()) throws -> OutboxItem? {
        try store.pool.write { db in
            guard try MailStore.outboxItem(accountId: accountId, fileName: fileName, db: db) == nil else { return nil }
            try db.execute(sql: """
                INSERT INTO sendQueue (accountId, fileName, state, raw, envelopeFrom, envelopeTo, createdAt, notBefore)
                VALUES (?, ?, 'draft', x'', '', '', ?, ?)
                """, arguments: [accountId, fileName, now, now])
            return try MailStore.outboxItem(id: db.lastInsertedRowID, db: db)
        }
    }

    /// Keeps the bytes of a draft that is not sent on close (an editor's temporary file,
    /// sent when renamed to its final name).
    public func saveDraft(id: Int64, data: [UInt8]) throws {
        try store.pool.write { db in
            try db.execute(sql: "UPDATE sendQueue SET raw = ? WHERE id = ? AND state = 'draft'",
                           arguments: [Data(data), id])
        }
    }

    /// Renames an outbox file; false when the new name is taken by another message.
    public func renameOutboxItem(id: Int64, to fileName: String) throws -> Bool {
        try store.pool.write { db in
            guard let item = try MailStore.outboxItem(id: id, db: db) else { return false }
            if let other = try MailStore.outboxItem(accountId: item.accountId, fileName: fileName, db: db), other.id != id {
                return false
            }
            try db.execute(sql: "UPDATE sendQueue SET fileName = ? WHERE id = ?", arguments: [fileName, id])
            return true
        }
    }

    /// What `outbox/` lists: drafts being written, queued, sending and failed messages, oldest first.
    public func outboxItems(accountId: Int64) throws -> [OutboxItem] {
        try store.pool.read { db in
            try OutboxItem.fetchAll(db, sql: """
                SELECT \(OutboxItem.columns) FROM sendQueue
                WHERE accountId = ? AND state NOT IN ('accepted', 'filing') ORDER BY id
                """, arguments: [accountId])
        }
    }

    /// `queued, sending, failed` counts for `.status` (drafts count as queued).
    public func outboxCounts(accountId: Int64) throws -> (queued: Int, sending: Int, failed: Int) {
        let items = try outboxItems(accountId: accountId)
        return (items.count { $0.state == .queued || $0.state == .draft }, items.count { $0.state == .sending },
                // Held messages wait for touch or rm, as failed ones do.
                items.count { $0.state == .failed || $0.state == .held })
    }
}
