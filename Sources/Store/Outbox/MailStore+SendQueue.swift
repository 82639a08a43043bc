import Foundation
import GRDB

/// The durable send queue behind `outbox/` (FR-SYNC-07/14). Every state change is one
/// committed transaction, so a crash at any point leaves a state the next run can resume.
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

    /// Commits a draft to the queue; when this returns it survives `kill -9`. False when
    /// the draft is gone (removed meanwhile).
    public func enqueue(draft id: Int64, _ message: OutgoingMessage, notBefore: Date, now: Date = Date()) throws -> Bool {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE sendQueue SET state = 'queued', fileName = ?, raw = ?, envelopeFrom = ?, envelopeTo = ?,
                       createdAt = ?, notBefore = ?
                WHERE id = ? AND state = 'draft'
                """, arguments: [message.fileName, Data(message.data), message.envelopeFrom,
                                 message.recipients.joined(separator: "\n"), now, notBefore, id])
            return db.changesCount > 0
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

    /// At start-up: drafts of a run that died were never acknowledged to their writer.
    public func removeDrafts() throws {
        try pool.write { db in try db.execute(sql: "DELETE FROM sendQueue WHERE state = 'draft'") }
    }

    /// What `outbox/` lists: drafts being written, queued, sending and failed messages, oldest first.
    public func outboxItems(accountId: Int64) throws -> [OutboxItem] {
        try pool.read { db in
            try OutboxItem.fetchAll(db, sql: """
                SELECT \(OutboxItem.columns) FROM sendQueue
                WHERE accountId = ? AND state <> 'accepted' ORDER BY id
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

    /// Messages the server accepted whose Sent copy is still to be appended.
    public func acceptedItems(accountId: Int64) throws -> [OutboxItem] {
        try pool.read { db in
            try OutboxItem.fetchAll(db, sql: """
                SELECT \(OutboxItem.columns) FROM sendQueue WHERE accountId = ? AND state = 'accepted' ORDER BY id
                """, arguments: [accountId])
        }
    }

    /// Moves a message to `state`; `from` guards against a concurrent `rm` or `touch`.
    /// Returns false when the message was not in one of the `from` states.
    @discardableResult
    public func updateOutboxItem(id: Int64, from: [SendState], to state: SendState, attempts: Int? = nil,
                                 notBefore: Date? = nil, error: String?? = nil, acceptedAt: Date? = nil,
                                 createdAt: Date? = nil) throws -> Bool {
        try pool.write { db in
            var assignments = ["state = ?"]
            var arguments: StatementArguments = [state.rawValue]
            if let attempts { assignments.append("attempts = ?"); arguments += [attempts] }
            if let notBefore { assignments.append("notBefore = ?"); arguments += [notBefore] }
            if let error { assignments.append("lastError = ?"); arguments += [error] }
            if let acceptedAt { assignments.append("acceptedAt = ?"); arguments += [acceptedAt] }
            if let createdAt { assignments.append("createdAt = ?"); arguments += [createdAt] }
            arguments += [id]
            let states = from.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            try db.execute(sql: "UPDATE sendQueue SET \(assignments.joined(separator: ", ")) WHERE id = ? AND state IN (\(states))",
                           arguments: arguments)
            return db.changesCount > 0
        }
    }

    /// Records the server's acceptance: the first thing done after its final reply, so no
    /// crash can send the message again. The name is freed for new files (the row stays,
    /// unlisted, until the Sent copy is appended).
    public func markAccepted(id: Int64, at date: Date = Date(), note: String? = nil) throws {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE sendQueue SET state = 'accepted', acceptedAt = ?, lastError = ?, fileName = '.accepted-' || id
                WHERE id = ?
                """, arguments: [date, note, id])
        }
    }

    /// Deletes a message (`rm`, or done). Returns false when it was in none of `states`.
    @discardableResult
    public func removeOutboxItem(id: Int64, ifIn states: [SendState]) throws -> Bool {
        try pool.write { db in
            let list = states.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            try db.execute(sql: "DELETE FROM sendQueue WHERE id = ? AND state IN (\(list))", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// At start-up: a message left `sending` by a run that died had no acceptance from the
    /// server on record (it is committed the moment the final reply arrives, before
    /// anything else), so it is queued again. Returns how many.
    public func requeueInterrupted(accountId: Int64) throws -> Int {
        try pool.write { db in
            try db.execute(sql: "UPDATE sendQueue SET state = 'queued' WHERE accountId = ? AND state = 'sending'",
                           arguments: [accountId])
            return db.changesCount
        }
    }

    /// `queued, sending, failed` counts for `.status` (drafts count as queued).
    public func outboxCounts(accountId: Int64) throws -> (queued: Int, sending: Int, failed: Int) {
        let items = try outboxItems(accountId: accountId)
        return (items.count { $0.state == .queued || $0.state == .draft }, items.count { $0.state == .sending },
                items.count { $0.state == .failed })
    }

    private static func outboxItem(accountId: Int64, fileName: String, db: Database) throws -> OutboxItem? {
        try OutboxItem.fetchOne(db, sql: """
            SELECT \(OutboxItem.columns) FROM sendQueue WHERE accountId = ? AND fileName = ? AND state <> 'accepted'
            """, arguments: [accountId, fileName])
    }

    private static func outboxItem(id: Int64, db: Database) throws -> OutboxItem? {
        try OutboxItem.fetchOne(db, sql: "SELECT \(OutboxItem.columns) FROM sendQueue WHERE id = ?", arguments: [id])
    }
}
