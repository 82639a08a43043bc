import Foundation
import GRDB
import MailCore

extension IngestingStore {
    /// Recomputes the conversation threads of an account (FR-SYNC-06) after messages
    /// were added or removed. Existing threads keep their id and directory name: when
    /// threads merge, the oldest survives; a new thread is named after its root message.
    /// Returns the ids of threads created, changed or deleted.
    ///
    /// Only what changed is regrouped (`RethreadScope`): the messages without a thread,
    /// the threads that lost one, and the threads the new messages link to. A batch that
    /// is a large part of the account (an import, a first sync) is grouped with the rest
    /// in one whole-account pass instead, which reads every message once rather than
    /// looking up each new message's links.
    ///
    /// Memory stays small next to the account: grouping streams only the threading
    /// headers (`ThreadingRow`), and the summary columns are read a chunk of groups at a
    /// time (`Rethreading`), never every column of every message at once.
    @discardableResult
    public func rethread(accountId: Int64) throws -> Set<Int64> {
        try store.pool.write { db in try MailStore.rethread(db, accountId: accountId) }
    }

    /// The rethread with its extent and chunk size given: tests make chunks small to cover
    /// groups spread over many chunks.
    ///
    /// A group whose messages are exactly the messages of one thread, which holds as many
    /// as its summary counts, is that thread already: its summary is left as it is and its
    /// messages are not read (docs/DECISIONS.md, "Rethreading: only what changed is
    /// settled"). `settlingAll` settles every group instead, for tests to compare.
    func rethread(accountId: Int64, extent: MailStore.RethreadExtent, chunking: GroupChunking,
                  settlingAll: Bool = false) throws -> Set<Int64> {
        try store.pool.write { db in
            try MailStore.rethread(db, accountId: accountId, extent: extent, chunking: chunking, settlingAll: settlingAll)
        }
    }
}
