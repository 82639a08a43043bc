/// Every change of an account's live state (FR-SYNC-04's phases, progress, the errors
/// `.status` shows), decided in one place and free of I/O, like `ChangeStateMachine` for
/// the journal and `SendStateMachine` for the send queue: the sync engine, the IDLE
/// watcher, the sender, the applier and the tree name what happened; this says what
/// `.status` shows from then on.
///
/// A full sync: connecting -> authenticating -> syncingFolders -> syncingHeaders (per
/// folder, with indexing when threads are recomputed: after a folder that changed, or at
/// the cycle's end) -> idle, or error from any step. The phase and the progress belong to
/// the full sync alone: work beside it (a write-back batch, one folder's sync, a download)
/// opens connections without naming a phase, so nothing else can leave one behind. The
/// connections line belongs to the pool, which names every change of it.
public enum AccountStateMachine {
    public enum Event: Sendable, Equatable {
        /// The full sync opens a connection, then logs in.
        case connecting
        case authenticating
        /// The pool's status line changed (a connection taken, given back, opened, closed).
        case connectionsChanged(String)
        /// A connection attempt failed and will be retried.
        case connectionRetry(reason: String)
        /// The server cannot be reached at all (refused, timed out, reset before login).
        case serverUnreachable(reason: String)
        /// LIST and folder discovery.
        case listingFolders
        /// Folder `index` (0-based) of `total` starts.
        case folderStarted(index: Int, of: Int)
        /// Progress inside a folder: `fetched` of `total` new messages.
        case messagesFetched(Int, of: Int, folder: Int, folders: Int)
        /// Threads are recomputed (after a folder that changed, or at the cycle's end).
        case indexing
        /// Every folder was visited.
        case foldersDone(Int)
        /// The cycle ended; `failedFolders` are "path: reason" of folders skipped this time.
        case synced(failedFolders: [String])
        /// The cycle ended early: nothing synced after this.
        case syncFailed(reason: String)
        /// One folder alone was synced (IDLE news, a Sent copy filed).
        case folderSynced
        case idleChanged(IdleStatus)
        /// Reading a message needed the server and it failed.
        case downloadFailed(String)
        /// Sync-window retention removed local copies.
        case purged(Int)
        /// A file in outbox/ was refused, or a message was given up on.
        case outboxFailed(String)
        /// The server accepted a message: the last outbox error is history.
        case delivered
        /// The server refused a local change for good; it was reverted.
        case changeReverted(String)
        /// The server said `[ALERT]` text, which must reach the user (RFC 3501 §7.1).
        case serverAlert(String)
    }

    /// The phases a full sync passes through: a one-folder sync finishing leaves them alone.
    static let syncing: Set<SyncPhase> = [.connecting, .authenticating, .syncingFolders, .syncingHeaders,
                                          .syncingBodies, .indexing]

    public static func apply(_ event: Event, to state: inout AccountActivity.State) {
        switch event {
        case .connecting:
            state.phase = .connecting
        case .authenticating:
            state.phase = .authenticating
        case .connectionsChanged(let line):
            state.connections = line
        case .connectionRetry(let reason), .serverUnreachable(let reason):
            state.online = false
            state.lastError = reason
        case .listingFolders:
            state.phase = .syncingFolders
            state.online = true
        case .folderStarted(let index, let total):
            state.phase = .syncingHeaders
            state.progress = "\(index)/\(total) folders, 0/0 messages"
        case .messagesFetched(let fetched, let total, let folder, let folders):
            state.progress = "\(folder)/\(folders) folders, \(fetched)/\(total) messages"
        case .indexing:
            state.phase = .indexing
        case .foldersDone(let count):
            state.progress = "\(count)/\(count) folders"
        case .synced(let failed):
            state.online = true
            state.phase = .idle
            state.progress = "none"
            state.lastError = failed.isEmpty ? nil : "\(failed.count) folders failed: " + failed.joined(separator: "; ")
        case .syncFailed(let reason):
            state.online = false
            state.phase = .error
            state.progress = "none"
            state.lastError = reason
        case .folderSynced:
            guard !syncing.contains(state.phase) else { return }
            state.phase = .idle
            state.progress = "none"
        case .idleChanged(let status):
            state.idle = status
            // A session that reached IDLE logged in: the server answers.
            if status == .active { state.online = true }
        case .downloadFailed(let reason):
            state.lastError = reason
        case .purged(let count):
            state.purgedOutsideWindow += count
        case .outboxFailed(let message):
            state.outboxError = message
        case .delivered:
            state.outboxError = nil
        case .changeReverted(let message):
            state.changeError = message
        case .serverAlert(let text):
            state.serverAlert = text
        }
    }
}

extension AccountActivity {
    /// Applies `event` (see `AccountStateMachine`).
    public func record(_ event: AccountStateMachine.Event) {
        update { AccountStateMachine.apply(event, to: &$0) }
    }
}
