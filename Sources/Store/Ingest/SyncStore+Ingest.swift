import Foundation
import GRDB
import MailCore

extension SyncStore {
    /// Stores messages of one account: parses them (outside the write lock), then in one
    /// transaction adds new messages, links the ones the store already holds (the same
    /// message, by the account's `SameMessage` rule) to their folder and skips what is
    /// already there. Threads are not recomputed here: call `rethread(accountId:)` after a batch.
    public func ingest(_ messages: [IncomingMessage], accountId: Int64) throws -> IngestSummary {
        try ingest(prepare(messages), accountId: accountId)
    }

    /// `ingest` of messages prepared beforehand (`prepare`).
    public func ingest(_ batch: PreparedBatch, accountId: Int64) throws -> IngestSummary {
        var added: [SearchEntry] = []
        let summary = try store.writeStoringRaw { db in
            try MailStore.ingest(batch.messages, accountId: accountId, pack: store.pack, indexing: &added, db: db)
        }
        store.searchIndex.add(added)
        return summary
    }
}
