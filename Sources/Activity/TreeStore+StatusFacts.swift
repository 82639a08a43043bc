import Foundation
import Store

extension TreeStore {
    /// What `.status` and `mailfs status` print for one account: its live state and
    /// profile with the store's counts (outbox, cache, folders). nil for an unsaved record.
    public func statusFacts(_ account: AccountRecord, activity: AccountActivity.State,
                            profile: AccountProfile) throws -> StatusReport.AccountFacts? {
        guard let id = account.id else { return nil }
        return StatusReport.AccountFacts(
            activity: activity, profile: profile, lastSync: account.lastSyncDate,
            outbox: try outboxCounts(accountId: id), cacheBytes: try cacheUsage(accountId: id),
            cacheLimitBytes: profile.cacheLimitBytes, folders: try folderStatus(accountId: id),
            journal: try journalCounts(accountId: id))
    }
}
