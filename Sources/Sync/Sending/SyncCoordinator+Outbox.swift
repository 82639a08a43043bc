import Foundation
import MailCore
import Store

/// The mount's outbox/ talks to the account's sender: which files it accepts, and a wake-up
/// when the queue changes.
extension SyncCoordinator: OutboxService {
    public func sendingPolicy(accountId: Int64) -> SendingPolicy? {
        guard let entry = entry(accountId: accountId), let sender = entry.sender else { return nil }
        let account = entry.synchronizer.account
        return SendingPolicy(
            outgoing: OutgoingPolicy(accountAddress: account.address, aliases: account.aliases,
                                     maxSize: sender.serverSizeLimit.withLock { $0 }),
            undoDelay: TimeInterval(account.settings.undoSeconds))
    }

    public func queueChanged(accountId: Int64) {
        entry(accountId: accountId)?.sender?.trigger.fire()
    }
}
