import Foundation
import IMAP
import Store

/// New mail first (FR-SYNC-03): when IDLE reports EXISTS, the messages that arrived since the
/// folder's last sync are stored over the IDLE connection itself, which has the folder
/// selected already, before the full sync of the folder (expunges, flags, checkpoint) runs on
/// a pooled connection. A new message shows in the mount after one small SEARCH and its
/// FETCHes instead of after a SELECT, two searches and a flag scan of the whole folder
/// (docs/SYNC-RULES.md, "New mail by IDLE").
extension FolderSynchronizer {
    /// Stores the messages with a UID from the folder's stored UIDNEXT on that are inside the
    /// sync window and not held yet. Does nothing before the folder's first sync or when the
    /// selected mailbox's UIDVALIDITY is not the stored one: the full sync handles those.
    /// Saves no checkpoint: the full sync that follows does.
    func fetchArrivals(_ folder: FolderRecord, selected mailbox: SelectedMailbox,
                       over connection: IMAPConnection) async throws -> Result {
        guard let folderId = folder.id, let uidNext = folder.uidNext, uidNext > 0,
              let validity = mailbox.uidValidity, folder.uidValidity == Int64(validity)
        else { return Result() }
        let first = UInt32(clamping: uidNext)
        let found = try await connection.uidSearch(.allOf([
            .uids(UIDSet([first...UInt32.max])), .since(Self.windowStart(daysBack: windowDays + 1)),
        ]))
        // `N:*` also names the highest UID when every UID is below N (RFC 3501 §6.4.8).
        let arrived = found.filter { $0 >= first }.map(Int64.init)
        guard !arrived.isEmpty else { return Result() }
        let held = try store.heldUIDs(folderId: folderId, from: Int64(first))
        let missing = arrived.filter { !held.contains($0) }.sorted()
        var result = Result()
        try await fetchNew(inBatches: missing, folderId: folderId, connection: connection, into: &result)
        return result
    }
}
