import Foundation
import Synchronization

/// How an account is reached, as `.status` prints it (from the config; no secrets).
public struct AccountProfile: Sendable, Equatable {
    /// The server family: Gmail's labels change what rm and mv do.
    public enum Provider: String, Sendable {
        case gmail, generic, offline
    }

    /// How the account logs in.
    public enum Auth: String, Sendable {
        case plain, xoauth2, none
    }

    public var name: String
    public var address: String
    public var provider: Provider
    public var auth: Auth
    /// `host:port security`, or "none" for offline accounts.
    public var imap: String
    public var smtp: String
    /// `cache_limit_mb`, for the `cache:` line.
    public var cacheLimitBytes: Int64
    /// `delete_guard`: deletions beyond this many within 60 s are held (0: no guard).
    public var deleteGuard: Int

    public init(name: String, address: String, provider: Provider, auth: Auth, imap: String, smtp: String,
                cacheLimitBytes: Int64 = 500 << 20, deleteGuard: Int = 100) {
        self.deleteGuard = deleteGuard
        self.name = name
        self.address = address
        self.provider = provider
        self.auth = auth
        self.imap = imap
        self.smtp = smtp
        self.cacheLimitBytes = cacheLimitBytes
    }

    /// An account imported with `mailfs import`: no server at all.
    public static func offline(name: String, address: String) -> AccountProfile {
        AccountProfile(name: name, address: address, provider: .offline, auth: .none,
                       imap: "none", smtp: "none")
    }
}

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
