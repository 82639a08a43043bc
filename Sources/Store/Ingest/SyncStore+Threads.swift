import Foundation
import GRDB
import MailCore

extension SyncStore {
    /// Whether the account's threads lag behind its messages: a message has no thread
    /// (stored by a sync or an import whose rethread never ran, the process having
    /// stopped between the two) or a thread lost a message. Two index lookups: `+accountId`
    /// keeps SQLite on the thread index, where the store's lack of statistics made it walk
    /// the account's messages, every row of them when none lacked a thread.
    public func owesRethread(accountId: Int64) throws -> Bool {
        try store.pool.read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM email WHERE threadId IS NULL AND +accountId = ?)
                    OR EXISTS (SELECT 1 FROM thread WHERE accountId = ? AND isStale)
                """, arguments: [accountId, accountId]) ?? false
        }
    }
}
