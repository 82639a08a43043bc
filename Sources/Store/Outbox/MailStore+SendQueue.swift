import Foundation
import GRDB

/// The durable send queue behind `outbox/` (FR-SYNC-07/14): rows, their bytes and the
/// queries. Every state change is one committed transaction through `SendStateMachine`
/// (`MailStore+SendTransition.swift`), so a crash at any point leaves a state the next run
/// can resume.
extension MailStore {
    /// A new file in outbox/, empty until its writer closes it. nil when the name is taken.
    public func createDraft(accountId: Int64, fileName: String, now: Date = Date()) throws -> OutboxItem? {
        try pool.write { db in
            guard try Self.outboxItem(accountId: accountId, fileName: fileName, db: db) == nil else { return nil }
            try db.execute(sql: """
                INSERT INTO sendQueue (accountId, fileName, state, raw, envelopeFrom, envelopeTo, createdAt, notBefore)
                VALUES (?, ?, 'draft', x'', '', '', ?, ?)
                """, arguments: [accountId, fileName, now, now])
            return try Self.outboxItem(id: db.lastInsertedRowID, db: db)
        }
    }

    /// Keeps the bytes of a draft that is not sent on close (an editor's temporary file,
    /// sent when renamed to its final name).
    public func saveDraft(id: Int64, data: [UInt8]) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE sendQueue SET raw = ? WHERE id = ? AND state = 'draft'",
                           arguments: [Data(data), id])
        }
    }

    /// Commits a draft to the queue with its prepared bytes and envelope, in one transaction
    /// with the `submit` transition; when this returns it survives `kill -9`. False when the
    /// draft is gone (removed meanwhile).
    public func enqueue(draft id: Int64, _ message: OutgoingMessage, undoDelay: TimeInterval,
                        now: Date = Date()) throws -> Bool {
        try pool.write { db in
            guard case .update = try Self.transition(send: id, .submit(undoDelay: undoDelay), machine: .untimed,
                                                     now: now, db: db) else { return false }
            try db.execute(sql: """
                UPDATE sendQueue SET fileName = ?, raw = ?, envelopeFrom = ?, envelopeTo = ? WHERE id = ?
                """, arguments: [message.fileName, Data(message.data), message.envelopeFrom,
                                 message.recipients.joined(separator: "\n"), id])
            return true
        }
    }

    /// Renames an outbox file; false when the new name is taken by another message.
    public func renameOutboxItem(id: Int64, to fileName: String) throws -> Bool {
        try pool.write { db in
            guard let item = try Self.outboxItem(id: id, db: db) else { return false }
            if let other = try Self.outboxItem(accountId: item.accountId, fileName: fileName, db: db), other.id != id {
                return false
            }
            try db.execute(sql: "UPDATE sendQueue SET fileName = ? WHERE id = ?", arguments: [fileName, id])
            return true
        }
    }

    /// What `outbox/` lists: drafts being written, queued, sending and failed messages, oldest first.
    public func outboxItems(accountId: Int64) throws -> [OutboxItem] {
        try pool.read { db in
            try OutboxItem.fetchAll(db, sql: """
                SELECT \(OutboxItem.columns) FROM sendQueue
                WHERE accountId = ? AND state NOT IN ('accepted', 'filing') ORDER BY id
                """, arguments: [accountId])
        }
    }

    public func outboxItem(id: Int64) throws -> OutboxItem? {
        try pool.read { db in try Self.outboxItem(id: id, db: db) }
    }

    public func outboxData(id: Int64) throws -> [UInt8]? {
        try pool.read { db in
            try Data.fetchOne(db, sql: "SELECT raw FROM sendQueue WHERE id = ?", arguments: [id]).map { [UInt8]($0) }
        }
    }

    /// The oldest message still to send (FIFO: nothing is sent before an older queued
    /// message of the account, even one waiting for a retry).
    public func oldestQueued(accountId: Int64) throws -> OutboxItem? {
        try pool.read { db in
            try OutboxItem.fetchOne(db, sql: """
                SELECT \(OutboxItem.columns) FROM sendQueue
                WHERE accountId = ? AND state = 'queued' ORDER BY id LIMIT 1
                """, arguments: [accountId])
        }
    }

    /// Messages the server accepted whose Sent copy is still to be appended (or to be
    /// found in Sent, when its APPEND was under way).
    public func acceptedItems(accountId: Int64) throws -> [OutboxItem] {
        try pool.read { db in
            try OutboxItem.fetchAll(db, sql: """
                SELECT \(OutboxItem.columns) FROM sendQueue
                WHERE accountId = ? AND state IN ('accepted', 'filing') ORDER BY id
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

    private static func outboxItem(accountId: Int64, fileName: String, db: Database) throws -> OutboxItem? {
        try OutboxItem.fetchOne(db, sql: """
            SELECT \(OutboxItem.columns) FROM sendQueue
            WHERE accountId = ? AND fileName = ? AND state NOT IN ('accepted', 'filing')
            """, arguments: [accountId, fileName])
    }

    static func outboxItem(id: Int64, db: Database) throws -> OutboxItem? {
        try OutboxItem.fetchOne(db, sql: "SELECT \(OutboxItem.columns) FROM sendQueue WHERE id = ?", arguments: [id])
    }
}
