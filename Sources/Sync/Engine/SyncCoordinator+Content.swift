import MailContracts
import Store

/// Content on first read: each message is downloaded by its own account's downloader.
extension SyncCoordinator: ContentProvider {
    public func content(_ key: ContentKey) async throws(ContentUnavailable) -> ContentDelivery {
        guard let accountId = try? store.accountId(ofEmail: key.emailId) else { throw .gone }
        guard let entry = entry(accountId: accountId) else {
            throw .failed("the account has no server to download from (offline)")
        }
        return try await entry.synchronizer.downloader.content(key).get()
    }
}
