import Foundation
import GRDB

/// Sync-window retention: when `sync_window_days` shrinks, local copies of older mail go
/// (bodies, raw bytes, cached files, index entries, thread membership); the server keeps
/// everything. What the user still needs locally stays: flagged messages and messages
/// with a change in the journal, and messages in `lost+found/`, which the server does not
/// have (`LostAndFound`). (outbox/ is the send queue, not these messages.)
extension SyncStore {
    /// SQL: `e` is a message of account ?1 that arrived before ?2 and is not kept.
    private static let outsideWindow = """
        e.accountId = ? AND e.dateReceived < ? AND e.isStarred = 0
        AND NOT EXISTS (SELECT 1 FROM change c WHERE c.emailId = e.id AND c.state IN ('pending', 'applying', 'held'))
        AND NOT EXISTS (SELECT 1 FROM emailFolder f JOIN folder d ON d.id = f.folderId
                        WHERE f.emailId = e.id AND d.localState = \(FolderLocalState.local.sql))
        """

    /// How many messages `purgeOutsideWindow` would remove.
    public func countOutsideWindow(accountId: Int64, arrivedBefore cutoff: Date) throws -> Int {
        try store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM email e WHERE \(Self.outsideWindow)",
                             arguments: [accountId, cutoff]) ?? 0
        }
    }

    /// Removes the local copies of messages that arrived before `cutoff`; returns how many.
    @discardableResult
    public func purgeOutsideWindow(accountId: Int64, arrivedBefore cutoff: Date) throws -> Int {
        let directory = store.cacheDirectory(accountId: accountId)
        let (count, files) = try store.pool.write { db -> (Int, [String]) in
            let ids = try Int64.fetchAll(db, sql: "SELECT e.id FROM email e WHERE \(Self.outsideWindow)",
                                         arguments: [accountId, cutoff])
            var files: [String] = []
            for chunk in ids.inSQLSlices {
                let marks = databaseQuestionMarks(count: chunk.count)
                let arguments = StatementArguments(chunk)
                files += try String.fetchAll(db, sql: "SELECT fileName FROM cachedContent WHERE emailId IN (\(marks))",
                                             arguments: arguments)
                try db.execute(sql: "DELETE FROM email WHERE id IN (\(marks))", arguments: arguments)
            }
            return (ids.count, files)
        }
        CacheFiles.remove(files.map { directory.appendingPathComponent($0) })
        if count > 0 { _ = try rethread(accountId: accountId) }
        return count
    }
}

/// The oldest arrival the sync window keeps. The sync asks the server for `SINCE` a date
/// one day wider than the window, compared in the server's time zone; one more day here
/// keeps retention from removing what the next sync would fetch again.
public enum SyncWindow {
    public static func cutoff(days: Int, now: Date = Date()) -> Date {
        now.addingTimeInterval(-Double(days + 2) * 86_400)
    }
}
