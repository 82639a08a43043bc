import Foundation

/// Every state change of a send-queue row (FR-SYNC-07), decided in one place and free of
/// I/O, like `ChangeStateMachine` for the journal: the tree, the sender and start-up feed it
/// events through `MailStore.transition(send:_:deliveredTo:machine:now:)`, which carries out
/// the decision.
///
/// draft -> queued -> sending -> accepted -> filing (Sent copy being appended) -> removed. A
/// transient failure (4xx, connection) is retried after `retryDelays` (FR-SYNC-07; the
/// sync's `SyncTiming` gives them), then the row fails; a permanent one (5xx) fails at once;
/// a row queued longer than `maxQueueAge` fails when its turn comes. Failed rows wait for
/// `touch` or `rm`.
///
/// The recipients a server took are the row's `deliveredTo`, written before the event is
/// decided: a row is accepted once every other recipient was refused for good, and each
/// attempt sends only to the recipients not yet reached.
public struct SendStateMachine: Sendable {
    /// Waits before the 2nd, 3rd and 4th attempt after a transient failure.
    public var retryDelays: [TimeInterval]
    /// A message queued (or queued again by `touch`) longer than this is not sent.
    public var maxQueueAge: TimeInterval

    public init(retryDelays: [TimeInterval], maxQueueAge: TimeInterval) {
        self.retryDelays = retryDelays
        self.maxQueueAge = maxQueueAge
    }

    /// For the events that never wait or expire (all but `claim`, `answered` and
    /// `transient`): the tree's, start-up's and the Sent copy's. Only the sender feeds
    /// those three, through the machine its timing builds; a transient failure fed to this
    /// one fails the row at once.
    public static let untimed = SendStateMachine(retryDelays: [], maxQueueAge: .infinity)

    public enum Event: Sendable, Equatable {
        /// close() of a checked file: it leaves after the undo delay (`undo_seconds`).
        case submit(undoDelay: TimeInterval)
        /// A draft that will never be submitted: refused at close(), its writer went away,
        /// or the run that created it died (it was never acknowledged).
        case abandon
        /// The sender takes the oldest queued row.
        case claim
        /// The attempt ran to its end: every recipient it carried was answered, and these
        /// were refused (the others took the message and are in `deliveredTo`).
        case answered(refused: [RecipientRefusal])
        /// The attempt ended early, worth retrying (4xx, connection trouble).
        case transient(String)
        /// The attempt ended early, never retried (5xx, authentication, too large): the server's text.
        case permanent(String)
        /// `touch` of a failed message.
        case retry
        /// `rm`.
        case discard
        /// At start-up. A row found `sending`: the run that sent it died before the server's
        /// final reply was recorded (acceptance is committed the moment it arrives). A row
        /// found `queued` that never had an attempt and had an undo delay: the user may have
        /// meant to cancel it when the mount died, so it is held.
        case restarted
        /// At start-up, once the recipients of the acceptance log are in `deliveredTo`: a
        /// row found `sending` that reached every recipient is accepted, never sent again.
        case deliveredBeforeRestart
        /// The Sent copy's APPEND is about to be sent.
        case appendingCopy
        /// The copy is in the Sent folder (or the server files it itself, as Gmail does).
        case filed
    }

    /// What the store must do with the row.
    public enum Decision: Sendable, Equatable {
        /// Set these columns (the full new values; `error` nil clears it).
        case update(state: SendState, attempts: Int, notBefore: Date, error: String?, createdAt: Date)
        /// Record the acceptance and free the file name (the row stays, unlisted, until filed).
        case accept(note: String?, at: Date)
        /// Delete the row.
        case remove
        /// Not due yet: change nothing; the queue (FIFO) waits until then.
        case wait(until: Date)
        /// Not allowed in this state (`rm` of a message being transmitted: EBUSY).
        case refuse
        /// The event does not apply to this state (a race lost to `rm` or `touch`): change nothing.
        case ignore
    }

    public func decide(_ item: OutboxItem, event: Event, now: Date) -> Decision {
        switch (item.state, event) {
        case (.draft, .submit(let undoDelay)):
            return .update(state: .queued, attempts: 0, notBefore: now.addingTimeInterval(undoDelay), error: nil,
                           createdAt: now)
        case (.draft, .abandon), (.draft, .discard), (.accepted, .filed), (.filing, .filed):
            return .remove
        case (.queued, .discard), (.failed, .discard), (.held, .discard):
            return giveUp(item, now: now)
        case (.sending, .discard):
            return .refuse
        case (.queued, .claim):
            return claim(item, now: now)
        case (.sending, .answered(let refused)):
            return settle(item, refused: refused, now: now)
        case (.sending, .transient(let reason)):
            return retryLater(item, item.withProgress(reason), now: now)
        case (.sending, .permanent(let reason)):
            return fail(item, item.withProgress(reason))
        case (.failed, .retry), (.held, .retry):
            return .update(state: .queued, attempts: 0, notBefore: now, error: nil, createdAt: now)
        case (.sending, .restarted):
            return item.with(.queued)
        case (.queued, .restarted) where item.attempts == 0 && item.notBefore > item.createdAt:
            return .update(state: .held, attempts: 0, notBefore: item.notBefore,
                           error: Self.heldReason, createdAt: item.createdAt)
        case (.sending, .deliveredBeforeRestart) where item.undelivered.isEmpty:
            return .accept(note: nil, at: now)
        case (.accepted, .appendingCopy):
            return item.with(.filing)
        default:
            return .ignore
        }
    }

    /// Every recipient reached or refused for good: accepted (failed when none was
    /// reached). Others refused for now: tried again later, and only they.
    private func settle(_ item: OutboxItem, refused: [RecipientRefusal], now: Date) -> Decision {
        let refusedForGood = refused.filter { !$0.isTransient }
        let lost = Set(refusedForGood.map(\.address))
        let unreached = item.undelivered.filter { !lost.contains($0) }
        if unreached.isEmpty {
            guard !item.delivered.isEmpty else {
                return fail(item, "every recipient was refused: \(RecipientRefusal.list(refusedForGood))")
            }
            return .accept(note: refusedForGood.isEmpty ? nil : "not delivered to \(RecipientRefusal.list(refusedForGood))",
                           at: now)
        }
        let waiting = refused.filter(\.isTransient)
        var reason = "not yet delivered to " + (waiting.isEmpty ? RecipientRefusal.list(unreached) : RecipientRefusal.list(waiting))
        if !refusedForGood.isEmpty { reason += "; not delivered to \(RecipientRefusal.list(refusedForGood))" }
        return retryLater(item, item.withProgress(reason), now: now)
    }

    /// `rm`: a message that reached no one is removed; one that reached some recipients
    /// is accepted as it is, so its Sent copy records what went out.
    private func giveUp(_ item: OutboxItem, now: Date) -> Decision {
        guard !item.delivered.isEmpty else { return .remove }
        return .accept(note: "not delivered to \(RecipientRefusal.list(item.undelivered)): removed from outbox/ first",
                       at: now)
    }

    static let heldReason = "the mount stopped during the undo delay: not sent; touch the file to send it, rm to discard it"

    /// The age limit is checked before the due time, so an expired message fails when it
    /// reaches the head of the queue instead of holding it until its retry time.
    private func claim(_ item: OutboxItem, now: Date) -> Decision {
        if now.timeIntervalSince(item.createdAt) > maxQueueAge {
            return fail(item, "send timeout: queued for more than \(Int(maxQueueAge / 3600)) hours")
        }
        guard item.notBefore <= now else { return .wait(until: item.notBefore) }
        return item.with(.sending)
    }

    private func retryLater(_ item: OutboxItem, _ reason: String, now: Date) -> Decision {
        guard item.attempts < retryDelays.count else {
            return fail(item, "\(reason) (gave up after \(item.attempts + 1) attempts)")
        }
        return .update(state: .queued, attempts: item.attempts + 1,
                       notBefore: now.addingTimeInterval(retryDelays[item.attempts]), error: reason,
                       createdAt: item.createdAt)
    }

    private func fail(_ item: OutboxItem, _ reason: String) -> Decision {
        .update(state: .failed, attempts: item.attempts, notBefore: item.notBefore, error: reason,
                createdAt: item.createdAt)
    }
}

private extension OutboxItem {
    /// The row in another state, everything else kept.
    func with(_ state: SendState) -> SendStateMachine.Decision {
        .update(state: state, attempts: attempts, notBefore: notBefore, error: lastError, createdAt: createdAt)
    }

    /// `reason`, with how far the message got when it reached some recipients already.
    func withProgress(_ reason: String) -> String {
        delivered.isEmpty ? reason : "\(reason) (delivered to \(delivered.count) of \(recipients.count) recipients)"
    }
}
