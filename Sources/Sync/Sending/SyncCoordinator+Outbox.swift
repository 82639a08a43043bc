import Foundation
import MailContracts
import Store

/// The mount's outbox/ hands closed files to the account's sender, and wakes it when the
/// queue changes.
extension SyncCoordinator: OutboxService {
    public func acceptsMail(accountId: Int64) -> Bool {
        sender(accountId: accountId) != nil
    }

    public func submit(_ draft: OutboxItem, bytes: [UInt8]) throws -> OutboxSubmission? {
        try sender(accountId: draft.accountId)?.submit(draft, bytes: bytes)
    }

    public func refused(_ draft: OutboxItem, reason: String) {
        sender(accountId: draft.accountId)?.refused(draft, reason: reason)
    }

    public func queueChanged(accountId: Int64) {
        sender(accountId: accountId)?.trigger.fire()
    }

    private func sender(accountId: Int64) -> OutboxSender? {
        entry(accountId: accountId)?.sender
    }
}
