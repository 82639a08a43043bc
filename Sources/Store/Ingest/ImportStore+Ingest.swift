import Foundation
import GRDB
import MailCore

extension ImportStore {
    /// Stores an import's batch in an offline folder, numbering its messages from the
    /// folder's counter in the same transaction (their own `uid` is not read), so batches
    /// prepared ahead of time get consecutive UIDs in the order they are stored.
    public func ingestImported(_ batch: PreparedBatch, folderId: Int64, accountId: Int64) throws -> IngestSummary {
        var added: [SearchEntry] = []
        let summary = try store.writeStoringRaw { db in
            let last = try Int64.fetchOne(
                db, sql: "SELECT lastSyncedUID FROM folder WHERE id = ?", arguments: [folderId]) ?? 0
            try db.execute(sql: "UPDATE folder SET lastSyncedUID = ? WHERE id = ?",
                           arguments: [last + Int64(batch.count), folderId])
            let numbered = batch.messages.enumerated().map { offset, message in
                var message = message
                message.incoming.folderId = folderId
                message.incoming.uid = last + 1 + Int64(offset)
                return message
            }
            return try MailStore.ingest(numbered, accountId: accountId, pack: store.pack, indexing: &added, db: db)
        }
        store.searchIndex.add(added)
        return summary
    }
}
