import Foundation
import GRDB
import MailCore

extension MailStore {
    /// Recomputes the conversation threads of an account (FR-SYNC-06) after messages
    /// were added or removed. Existing threads keep their id and directory name: when
    /// threads merge, the oldest survives; a new thread is named after its root message.
    /// Returns the ids of threads created, changed or deleted.
    ///
    /// Memory stays small next to the account: grouping streams only the threading
    /// headers (`ThreadingRow`), and the summary columns are read a chunk of groups at a
    /// time (`Rethreading`), instead of every column of every message at once (a
    /// 200,000-message import peaked at 348 MiB in the old one-pass rethread).
    @discardableResult
    public func rethread(accountId: Int64) throws -> Set<Int64> {
        try rethread(accountId: accountId, chunking: .standard)
    }

    /// Whether a message of the account has no thread: stored by a sync or an import whose
    /// rethread never ran (the process stopped between the two). A rethread threads every
    /// message, so this is what a pass still owes. One lookup on the thread index.
    public func hasUnthreadedMessages(accountId: Int64) throws -> Bool {
        try pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM email WHERE threadId IS NULL AND accountId = ?)",
                              arguments: [accountId]) ?? false
        }
    }

    /// `rethread(accountId:)` with the chunk size given: tests make it small to cover
    /// groups spread over many chunks.
    ///
    /// A group whose messages are exactly the messages of one thread, which holds as many
    /// as its summary counts, is that thread already: its summary is left as it is and its
    /// messages are not read (docs/DECISIONS.md, "Rethreading: only what changed is
    /// settled"). `settlingAll` settles every group instead, for tests to compare.
    func rethread(accountId: Int64, chunking: GroupChunking, settlingAll: Bool = false) throws -> Set<Int64> {
        try pool.write { db in
            let (groups, current) = try ThreadingRow.groups(db, accountId: accountId)
            var rethreading = try Rethreading(db, accountId: accountId, current: settlingAll ? CurrentThreads() : current)
            for chunk in chunking.chunks(of: groups) {
                try rethreading.apply(chunk, db)
            }
            return try rethreading.finish(db)
        }
    }
}
