import Config
import Foundation
import IMAP
import Logging
import Store
import Synchronization

/// One account's send queue (FR-SYNC-07/14): strictly oldest first, retries after 30 s,
/// 2 min and 8 min, failure after 24 h, acceptance committed before anything else, then
/// the Sent copy. Each account has its own sender, so a dead server delays only its own
/// account's mail.
final class OutboxSender: Sendable {
    let account: AccountConfig
    let store: MailStore
    let activity: AccountActivity
    let timing: SyncTiming
    let transmitter: SMTPTransmitter
    let sentCopies: SentCopyAppender?
    let trigger = SyncTrigger()
    /// The SIZE the server advertised at the last send: files over it are refused at close().
    let serverSizeLimit = Mutex<Int?>(nil)
    let logger: Logger

    init(account: AccountConfig, endpoint: ServerEndpoint, store: MailStore, activity: AccountActivity,
         timing: SyncTiming, sentCopies: SentCopyAppender?, logger: Logger) {
        self.account = account
        self.store = store
        self.activity = activity
        self.timing = timing
        self.sentCopies = sentCopies
        self.logger = logger
        transmitter = SMTPTransmitter(account: account, endpoint: endpoint, timing: timing, logger: logger)
    }

    /// Runs until cancelled: sends what is due, then sleeps until the next message is due
    /// or the queue changes (a new file, `rm`, `touch`).
    func run() async {
        do {
            let accountId = try store.ensureAccount(name: account.name, address: account.address, isOffline: false).id ?? -1
            let requeued = try store.requeueInterrupted(accountId: accountId)
            if requeued > 0 { activity.log.record("outbox: \(requeued) message(s) interrupted mid-send queued again") }
            while !Task.isCancelled {
                let nextDue = await sendDue(accountId: accountId)
                await trigger.wait(upTo: nextDue.map { max($0.timeIntervalSinceNow, 0.05) }.map { .milliseconds(Int($0 * 1000)) } ?? .seconds(3600))
            }
        } catch {
            activity.log.record("outbox: the send queue stopped: \(error)", level: "error")
        }
    }

    /// Sends every due message, oldest first, then files the Sent copies of what was
    /// accepted (after the queue, so a batch is not slowed by an APPEND per message);
    /// returns when the next one is due (nil: nothing queued).
    func sendDue(accountId: Int64) async -> Date? {
        let next = await sendQueued(accountId: accountId)
        await fileSentCopies(accountId: accountId)
        return next
    }

    /// A message waiting for its retry holds back younger ones (FIFO).
    private func sendQueued(accountId: Int64) async -> Date? {
        do {
            while let head = try store.oldestQueued(accountId: accountId) {
                if Date().timeIntervalSince(head.createdAt) > timing.maxQueueAge.seconds {
                    try fail(head, "send timeout: queued for more than \(Int(timing.maxQueueAge.seconds / 3600)) hours")
                    continue
                }
                guard head.notBefore <= Date() else { return head.notBefore }
                guard try store.updateOutboxItem(id: head.id, from: [.queued], to: .sending) else { continue }
                if let retryAt = try await transmit(head) { return retryAt }
            }
        } catch {
            activity.log.record("outbox: store error: \(error)", level: "error")
            return Date().addingTimeInterval(timing.sendRetryDelays.first?.seconds ?? 30)
        }
        return nil
    }

    /// Generic servers get the copy appended to Sent; for Gmail, which files it itself,
    /// the accepted rows just leave the queue.
    private func fileSentCopies(accountId: Int64) async {
        if let sentCopies { return await sentCopies.appendPending(accountId: accountId) }
        do {
            for item in try store.acceptedItems(accountId: accountId) {
                try store.removeOutboxItem(id: item.id, ifIn: [.accepted])
            }
        } catch {
            activity.log.record("outbox: store error: \(error)", level: "error")
        }
    }

    /// One attempt; returns the retry time when the message must wait (and the queue with it).
    private func transmit(_ item: OutboxItem) async throws -> Date? {
        guard let data = try store.outboxData(id: item.id) else { return nil }
        activity.log.record("outbox: sending \(item.fileName) (attempt \(item.attempts + 1))")
        switch await transmitter.send(data: data, envelopeFrom: item.envelopeFrom, recipients: item.recipients) {
        case .accepted(let note, let sizeLimit):
            serverSizeLimit.withLock { $0 = sizeLimit }
            activity.update { $0.outboxError = nil }
            try store.markAccepted(id: item.id, note: note)
            activity.log.record("outbox: \(item.fileName) accepted by the server" + (note.map { "; \($0)" } ?? ""),
                                level: note == nil ? "info" : "warning")
            return nil
        case .permanent(let reason):
            try fail(item, reason)
            return nil
        case .transient(let reason):
            return try retryLater(item, reason)
        }
    }

    private func retryLater(_ item: OutboxItem, _ reason: String) throws -> Date? {
        let attempts = item.attempts + 1
        guard attempts <= timing.sendRetryDelays.count else {
            try fail(item, "\(reason) (gave up after \(attempts) attempts)")
            return nil
        }
        let retryAt = Date().addingTimeInterval(timing.sendRetryDelays[attempts - 1].seconds)
        try store.updateOutboxItem(id: item.id, from: [.sending], to: .queued, attempts: attempts,
                                   notBefore: retryAt, error: .some(reason))
        activity.log.record("outbox: \(item.fileName) not sent: \(reason); retry \(attempts) in "
                            + "\(Int(timing.sendRetryDelays[attempts - 1].seconds)) s", level: "warning")
        return retryAt
    }

    private func fail(_ item: OutboxItem, _ reason: String) throws {
        try store.updateOutboxItem(id: item.id, from: [.queued, .sending], to: .failed, error: .some(reason))
        activity.log.record("outbox: \(item.fileName) failed: \(reason)", level: "error")
        activity.update { $0.outboxError = "\(item.fileName) failed: \(reason)" }
    }
}

extension Duration {
    var seconds: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
