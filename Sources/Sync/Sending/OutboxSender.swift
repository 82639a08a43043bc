import Activity
import Config
import Foundation
import IMAP
import Logging
import Store
import Synchronization

/// One account's send queue (FR-SYNC-07/14): strictly oldest first, acceptance committed
/// before anything else, then the Sent copy. What each outcome does to a row (retries,
/// failure, timeout) is `SendStateMachine`'s decision; this type transmits and logs. Each
/// account has its own sender, so a dead server delays only its own account's mail.
final class OutboxSender: Sendable {
    let account: AccountConfig
    let store: SyncStore
    let activity: AccountActivity
    let timing: SyncTiming
    let transmitter: SMTPTransmitter
    /// Every state change of this account's queue: retry delays and the age limit from `timing`.
    let machine: SendStateMachine
    let sentCopies: SentCopyAppender?
    let trigger = SyncTrigger()
    /// The SIZE the server advertised at the last send: files over it are refused at close().
    let serverSizeLimit = Mutex<Int?>(nil)
    let logger: Logger

    init(account: AccountConfig, endpoint: ServerEndpoint, store: SyncStore, activity: AccountActivity,
         timing: SyncTiming, sentCopies: SentCopyAppender?, logger: Logger) {
        self.account = account
        self.store = store
        self.activity = activity
        self.timing = timing
        self.sentCopies = sentCopies
        self.logger = logger
        transmitter = SMTPTransmitter(account: account, endpoint: endpoint, timing: timing, logger: logger)
        machine = timing.sendStateMachine
    }

    /// Runs until cancelled: sends what is due, then sleeps until the next message is due
    /// or the queue changes (a new file, `rm`, `touch`).
    func run() async {
        do {
            let accountId = try store.ensureAccount(name: account.name, address: account.address, isOffline: false).id ?? -1
            // Held first: a message interrupted mid-send is past its undo delay and goes again.
            let held = try store.holdUndoWindowSends(accountId: accountId, machine: machine)
            if held > 0 {
                activity.log.record("outbox: \(held) message(s) in their undo delay when the mount stopped are held, "
                                    + "not sent: touch to send, rm to discard", level: .warning)
            }
            let requeued = try store.recoverInterruptedSends(accountId: accountId, machine: machine)
            if requeued > 0 { activity.log.record("outbox: \(requeued) message(s) interrupted mid-send queued again") }
            while !Task.isCancelled {
                let nextDue = await sendDue(accountId: accountId)
                await trigger.wait(upTo: nextDue.map { max($0.timeIntervalSinceNow, 0.05) }.map { .milliseconds(Int($0 * 1000)) } ?? .seconds(3600))
            }
        } catch {
            activity.log.record("outbox: the send queue stopped: \(error)", level: .error)
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
                let now = Date()
                switch try store.transition(send: head.id, .claim, machine: machine, now: now) {
                case .wait(let until):
                    return until
                case .update(state: .sending, _, _, _, _):
                    if let retryAt = try await transmit(head) { return retryAt }
                case let decision:
                    _ = record(head, decision, now: now)
                }
            }
        } catch {
            activity.log.record("outbox: store error: \(error)", level: .error)
            // Tried again after the first retry delay (a full disk may clear by then).
            return Date().addingTimeInterval(machine.retryDelays.first ?? 0)
        }
        return nil
    }

    /// Generic servers get the copy appended to Sent; for Gmail, which files it itself,
    /// the accepted rows just leave the queue.
    private func fileSentCopies(accountId: Int64) async {
        if let sentCopies { return await sentCopies.appendPending(accountId: accountId) }
        do {
            for item in try store.acceptedItems(accountId: accountId) {
                try store.transition(send: item.id, .filed, machine: machine)
            }
        } catch {
            activity.log.record("outbox: store error: \(error)", level: .error)
        }
    }

    /// One attempt, to the recipients not reached yet; returns the retry time when the
    /// message must wait (and the queue with it).
    private func transmit(_ item: OutboxItem) async throws -> Date? {
        guard let data = try store.outboxData(id: item.id) else { return nil }
        let remaining = item.undelivered
        activity.log.record("outbox: sending \(item.fileName) (attempt \(item.attempts + 1))"
                            + (item.delivered.isEmpty ? "" : " to the \(remaining.count) recipient(s) not reached yet"))
        let delivered = DeliveredRecipients()
        let store = self.store
        let id = item.id
        // Each transaction's recipients are on disk before the next command, before this
        // task even resumes.
        let outcome = await transmitter.send(data: data, envelopeFrom: item.envelopeFrom, recipients: remaining,
                                             onDelivered: { delivered.record($0, of: id, in: store) })
        if let problem = delivered.problem {
            activity.log.record("outbox: \(item.fileName): \(problem)", level: .error)
        }
        let event: SendStateMachine.Event
        switch outcome {
        case .answered(let refused, let sizeLimit):
            serverSizeLimit.withLock { $0 = sizeLimit }
            event = .answered(refused: refused)
        case .permanent(let reason):
            event = .permanent(reason)
        case .transient(let reason):
            event = .transient(reason)
        }
        // Committed before anything else: no crash after an acceptance can send it again.
        let now = Date()
        let decision = try store.transition(send: item.id, event, deliveredTo: delivered.all, machine: machine, now: now)
        let retryAt = record(item, decision, now: now)
        // After `record`: an acceptance clears `outbox_error`.
        if let problem = delivered.problem { activity.record(.outboxFailed("\(item.fileName): \(problem)")) }
        return retryAt
    }

    /// Says in `.log` (failures also in `.status`) what the machine decided for `item`;
    /// returns the retry time when the queue must wait for it.
    private func record(_ item: OutboxItem, _ decision: SendStateMachine.Decision, now: Date) -> Date? {
        switch decision {
        case .accept(let note, _):
            activity.record(.delivered)
            activity.log.record("outbox: \(item.fileName) accepted by the server" + (note.map { "; \($0)" } ?? ""),
                                level: note == nil ? .info : .warning)
        case .update(state: .queued, let attempts, let retryAt, let reason?, _):
            activity.log.record("outbox: \(item.fileName) not sent: \(reason); retry \(attempts) in "
                                + "\(Int(retryAt.timeIntervalSince(now).rounded())) s", level: .warning)
            return retryAt
        case .update(state: .failed, _, _, let reason?, _):
            activity.log.record("outbox: \(item.fileName) failed: \(reason)", level: .error)
            activity.record(.outboxFailed("\(item.fileName) failed: \(reason)"))
        default:
            break
        }
        return nil
    }
}

/// The recipients an attempt reached, collected and recorded on the connection's event loop.
private final class DeliveredRecipients: Sendable {
    private let recipients = Mutex<[String]>([])
    private let problems = Mutex<[String]>([])

    /// Records that the server took the message for `more`, before the next command: in
    /// the acceptance log, or when it cannot be written, in the database (waiting for its
    /// writer holds this connection's event loop, the price of never sending twice).
    func record(_ more: [String], of id: Int64, in store: SyncStore) {
        recipients.withLock { $0 += more }
        do {
            try store.noteDelivered(send: id, to: more)
        } catch {
            let problem: String
            do {
                try store.recordDelivered(send: id, to: more)
                problem = "acceptance recorded in the database instead of its log (\(error))"
            } catch let storeError {
                problem = "acceptance not recorded (\(error); \(storeError)): "
                    + "unless the database takes this attempt's outcome, the next start sends the message again"
            }
            problems.withLock { $0.append(problem) }
        }
    }

    var all: [String] { recipients.withLock { $0 } }

    /// What went wrong recording the acceptances, if anything.
    var problem: String? { problems.withLock { $0.isEmpty ? nil : $0.joined(separator: "; ") } }
}

extension Duration {
    var seconds: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
