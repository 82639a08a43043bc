import Config
import Store

/// The delays of the sync engine (FR-SYNC-09), in one place so tests can shorten them
/// through configuration instead of changing the defaults.
public struct SyncTiming: Sendable, Equatable {
    /// Waits before the 2nd, 3rd and 4th connection attempt (and journal retry).
    public var retryDelays: [Duration]
    public var connectTimeout: Duration
    /// Longest silence from the server within a command before it counts as gone.
    public var responseTimeout: Duration = .seconds(120)
    /// Periodic sync of every folder (docs/REQUIREMENTS.md §C6: other folders are polled
    /// every 5 minutes).
    public var pollInterval: Duration
    /// Waits before the 2nd, 3rd and 4th attempt of a download on first read (FR-SYNC-08);
    /// short, since a reader is waiting.
    public var downloadRetryDelays: [Duration] = [.seconds(1), .seconds(2), .seconds(4)]
    /// Waits before the journal tries a server it could not reach again: doubling from the
    /// lower to the upper bound.
    public var offlineBackoff: ClosedRange<Duration> = .seconds(2) ... .seconds(30)
    /// Waits before the 2nd, 3rd and 4th attempt of a send (FR-SYNC-07).
    public var sendRetryDelays: [Duration]
    /// A message queued longer than this fails with "send timeout" (FR-SYNC-07).
    public var maxQueueAge: Duration = .seconds(24 * 3600)
    /// Within a sync cycle, threads are recomputed after a folder only once this many times
    /// the last pass's length has gone by since it (`RethreadSchedule`); tests raise it to
    /// leave every pass of a cycle to its end.
    public var rethreadSpacing = 10

    /// The timing of the built-in settings.
    public init() {
        self.init(AccountSettings())
    }

    /// The timing an account's settings ask for.
    public init(_ settings: AccountSettings) {
        let first = settings.retryDelaySeconds
        retryDelays = [first, first * 3, first * 9].map { .seconds($0) }
        connectTimeout = .seconds(settings.connectTimeoutSeconds)
        pollInterval = .seconds(settings.pollIntervalSeconds)
        let send = settings.sendRetryDelaySeconds
        sendRetryDelays = [send, send * 4, send * 16].map { .seconds($0) }
    }
}

extension SyncTiming {
    /// The journal's state machine, with these delays.
    var changeStateMachine: ChangeStateMachine {
        ChangeStateMachine(retryDelays: retryDelays.map(\.seconds),
                           offlineBackoff: (offlineBackoff.lowerBound.seconds, offlineBackoff.upperBound.seconds))
    }

    /// The send queue's state machine, with these delays.
    var sendStateMachine: SendStateMachine {
        SendStateMachine(retryDelays: sendRetryDelays.map(\.seconds), maxQueueAge: maxQueueAge.seconds)
    }
}
