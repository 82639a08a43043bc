import Foundation

/// Every state change of a journal row, decided in one place and free of I/O (like the
/// IMAP and SMTP session state machines): the store and the applier feed it events and
/// carry out the decision it returns.
///
/// pending -> applying -> done; a refusal by the server is retried after `retryDelays`
/// (FR-SYNC-05; the sync's `SyncTiming` gives them) and then reverted, one that no retry
/// can change is reverted at once; an unreachable server never counts as a refusal
/// (offline changes wait); held rows wait for the user.
public struct ChangeStateMachine: Sendable {
    /// Waits before the 2nd, 3rd and 4th attempt after a refusal.
    public var retryDelays: [TimeInterval]
    /// Waits before trying again after the server could not be reached: doubling from the
    /// first to the last value.
    public var offlineBackoff: (first: TimeInterval, maximum: TimeInterval)

    public init(retryDelays: [TimeInterval], offlineBackoff: (first: TimeInterval, maximum: TimeInterval)) {
        self.retryDelays = retryDelays
        self.offlineBackoff = offlineBackoff
    }

    /// For the events that never wait (`claim`, `applied`, `restarted`, `confirm`,
    /// `cancel`): the tree's and start-up's. Only the applier feeds refusals and outages,
    /// through the machine its timing builds; a refusal fed to this one reverts at once.
    public static let untimed = ChangeStateMachine(retryDelays: [], offlineBackoff: (0, 0))

    public enum Event: Sendable, Equatable {
        /// The applier takes the row.
        case claim
        /// The server now reflects the change (or already did, found on replay).
        case applied
        /// The server refused it (NO/BAD, the folder is gone...) and may take it later.
        case refused(String)
        /// The server refused it in a way no retry changes (`RefusalPermanence` in Sync).
        case refusedForGood(String)
        /// The server could not be reached or the connection broke; `failures` counts
        /// consecutive ones for the backoff.
        case unreachable(failures: Int)
        /// Found `applying` at start-up: the previous process died while applying it.
        case restarted
        case confirm
        case cancel
    }

    /// What the store must do with the row.
    public enum Decision: Sendable, Equatable {
        /// Update the row to this state, attempt count and time.
        case update(state: ChangeState, attempts: Int, notBefore: Date, interrupted: Bool, error: String?)
        /// Finish the local side (drop leaving associations, number arrivals); keep as done.
        case finish
        /// Set the local state back to the server's and drop the row, reporting `reason`;
        /// an APPEND's message, which only the store has, is kept in `lost+found/`.
        case revert(reason: String)
        /// The event makes no sense in this state: change nothing.
        case ignore
    }

    public func decide(_ state: ChangeState, attempts: Int, interrupted: Bool, event: Event, now: Date) -> Decision {
        switch (state, event) {
        case (.pending, .claim):
            return .update(state: .applying, attempts: attempts, notBefore: now, interrupted: interrupted, error: nil)
        case (.applying, .applied), (.pending, .applied):
            return .finish
        case (.applying, .refused(let reason)):
            guard attempts < retryDelays.count else {
                return .revert(reason: "\(reason) (gave up after \(attempts + 1) attempts)")
            }
            return .update(state: .pending, attempts: attempts + 1,
                           notBefore: now.addingTimeInterval(retryDelays[attempts]),
                           interrupted: interrupted, error: reason)
        case (.applying, .refusedForGood(let reason)):
            return .revert(reason: reason)
        case (.applying, .unreachable(let failures)):
            let wait = min(offlineBackoff.first * pow(2, Double(max(failures - 1, 0))), offlineBackoff.maximum)
            return .update(state: .pending, attempts: attempts, notBefore: now.addingTimeInterval(wait),
                           interrupted: interrupted, error: nil)
        case (.applying, .restarted):
            return .update(state: .pending, attempts: attempts, notBefore: now, interrupted: true, error: nil)
        case (.held, .confirm):
            return .update(state: .pending, attempts: attempts, notBefore: now, interrupted: interrupted, error: nil)
        case (.held, .cancel):
            return .revert(reason: "deletion cancelled")
        default:
            return .ignore
        }
    }
}
