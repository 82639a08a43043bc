import Foundation
import Synchronization

/// Sync phases of FR-SYNC-17, spelled as `.status` prints them.
public enum SyncPhase: String, Sendable {
    case idle, connecting, authenticating, syncingFolders, syncingHeaders, syncingBodies, indexing, error
}

/// Whether the INBOX is watched with IDLE, as `.status` prints it.
public enum IdleStatus: String, Sendable {
    case active, reconnecting, disconnected, unavailable
}

/// The live, in-memory state of one account that `.status` shows and the sync engine
/// updates. Thread-safe; readers take a snapshot.
public final class AccountActivity: Sendable {
    public struct State: Sendable, Equatable {
        public var online = false
        public var phase = SyncPhase.idle
        public var lastError: String?
        public var idle = IdleStatus.unavailable
        public var progress = "none"
        public var connections = "0 active, 0 max, 0 idle, 0 waiting"
        /// The last file refused in outbox/ or message given up on; kept apart from
        /// `lastError`, which every successful sync clears. Cleared by the next delivery.
        public var outboxError: String?
        /// The last local change the server refused for good (reverted).
        public var changeError: String?
        /// Local copies removed by sync-window retention since the mount started.
        public var purgedOutsideWindow = 0
        /// The last `[ALERT]` text a server of the account sent, made printable.
        public var serverAlert: String?
        public init() {}
    }

    public let profile: AccountProfile
    public let log: EventLog
    private let state: Mutex<State>

    public init(profile: AccountProfile, log: EventLog = EventLog()) {
        self.profile = profile
        self.log = log
        state = Mutex(State())
    }

    public var snapshot: State { state.withLock { $0 } }

    /// Writers name an event instead: `record(_:)` (AccountStateMachine).
    func update(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
    }
}
