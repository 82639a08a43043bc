import Activity
import Foundation
import MailContracts
import MailCore
import Store

/// The sender's side of a file closed in outbox/: the account's rules decide whether it
/// may leave (From and Sender among the account's addresses, the size the server
/// advertised), then it is committed to the queue with the undo delay, or refused with the
/// reason in `.log` and `.status`'s `outbox_error`.
extension OutboxSender {
    func submit(_ draft: OutboxItem, bytes: [UInt8]) throws -> OutboxSubmission {
        let now = Date()
        let token = "\(UInt64(now.timeIntervalSince1970 * 1000)).\(UUID().uuidString.lowercased())"
        switch OutgoingPreparer.prepare(bytes, policy: outgoingPolicy, now: now, uniqueToken: token) {
        case .failure(let rejection):
            refused(draft, reason: rejection.reason)
            return .refused(rejection)
        case .success(let prepared):
            let message = OutgoingMessage(fileName: draft.fileName, data: prepared.data,
                                          envelopeFrom: prepared.envelopeFrom, recipients: prepared.recipients)
            let undoDelay = TimeInterval(account.settings.undoSeconds)
            guard try store.enqueue(draft: draft.id, message, undoDelay: undoDelay, now: now) else { return .gone }
            activity.log.record("outbox: \(draft.fileName) queued for \(prepared.recipients.count) recipient(s)"
                                + (undoDelay > 0 ? ", sending in \(Int(undoDelay)) s" : ""))
            trigger.fire()
            return .queued
        }
    }

    func refused(_ draft: OutboxItem, reason: String) {
        let message = "\(draft.fileName) refused: \(reason)"
        activity.log.record("outbox: " + message, level: .error)
        activity.record(.outboxFailed(message))
    }

    private var outgoingPolicy: OutgoingPolicy {
        OutgoingPolicy(accountAddress: account.address, aliases: account.aliases,
                       maxSize: serverSizeLimit.withLock { $0 })
    }
}
