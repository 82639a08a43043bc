import Activity
import Config
import Foundation
import IMAP
import Logging
import Store
import Synchronization

/// Applies one account's journal to its server, strictly in order (docs/ARCHITECTURE.md,
/// "tree -> journal -> server"): takes the oldest due batch, claims it, carries it out
/// over a pooled connection, and feeds the outcome to `ChangeStateMachine` through the
/// store. Folder syncs of the same account wait for the batch (`gate`) and the batch
/// waits for them, so the sync never sees a move half done.
final class ChangeApplier: Sendable {
    let account: AccountConfig
    let store: SyncStore
    let pool: ConnectionPool
    let activity: AccountActivity
    let gate: AsyncSemaphore
    let machine: ChangeStateMachine
    let trigger = SyncTrigger()
    let openConnection: @Sendable () async throws -> IMAPConnection
    /// Told of each `WriteBackPoint` as the applier passes it.
    let reached: @Sendable (WriteBackPoint) -> Void
    let logger: Logger
    /// Consecutive batches that found the server unreachable (the backoff grows with it).
    private let unreachableStreak = Mutex(0)

    var isGmail: Bool { account.provider == .gmail }

    init(account: AccountConfig, store: SyncStore, pool: ConnectionPool, activity: AccountActivity,
         gate: AsyncSemaphore, timing: SyncTiming, logger: Logger,
         openConnection: @escaping @Sendable () async throws -> IMAPConnection,
         reached: @escaping @Sendable (WriteBackPoint) -> Void) {
        self.account = account
        self.store = store
        self.pool = pool
        self.activity = activity
        self.gate = gate
        self.logger = logger
        self.openConnection = openConnection
        self.reached = reached
        machine = timing.changeStateMachine
    }

    /// Runs until cancelled; wakes on `trigger` (a new change, a sync that reached the
    /// server) or when the oldest change is due. A store that cannot be written (a full
    /// disk) pauses it, tried again 2 s doubling to 60 s like a failed sync; each new start
    /// first checks the changes a failed write left claimed, as after a crash.
    func run() async {
        var retry = RetryBackoff()
        while !Task.isCancelled {
            do {
                let accountId = try resolveAccountId()
                let interrupted = try store.recoverInterrupted(accountId: accountId, machine: machine)
                if interrupted > 0 { activity.log.record("write-back: \(interrupted) change(s) interrupted; checking them") }
                while !Task.isCancelled {
                    let wait = try await applyDue(accountId: accountId).map { max($0.timeIntervalSinceNow, 0.01) } ?? 3600
                    retry = RetryBackoff()
                    await trigger.wait(upTo: .milliseconds(Int(wait * 1000)))
                    // `rm *.eml` records a change per file: gathering a moment turns them into
                    // a few large UID sets, and fewer transactions compete with the file operations.
                    try? await Task.sleep(for: Self.gatheringDelay)
                }
            } catch {
                if Task.isCancelled { return }
                // Only the store throws here (a full disk, damage): nothing is lost by waiting.
                let reason = store.describeStoreFailure(error) ?? "\(error)"
                let delay = retry.next()
                activity.log.record("write-back: waits for the store (\(reason)); trying again in \(delay)", level: .warning)
                try? await Task.sleep(for: delay)
            }
        }
    }

    /// Applies every due change, batch after batch; returns when the oldest remaining one
    /// is due (nil: nothing pending).
    func applyDue(accountId: Int64) async throws -> Date? {
        while true {
            let (batch, nextDue) = try store.dueChanges(accountId: accountId)
            guard !batch.isEmpty else { return nextDue }
            report(try store.transition(try await applyClaimed(batch), machine: machine))
        }
    }

    func resolveAccountId() throws -> Int64 {
        try store.ensureAccount(name: account.name, address: account.address, isOffline: false).id ?? -1
    }

    /// Claims the batch, applies it, and says what happened to each row. Throws only when
    /// the store cannot be written: that is no news about the server.
    private func applyClaimed(_ batch: [JournalChange]) async throws -> [SyncStore.ChangeOutcome] {
        do {
            try store.transition(batch.compactMap { $0.id.map { .init(id: $0, event: .claim) } }, machine: machine)
            // Connection first, then the gate: the order a folder sync takes them in.
            let gate = self.gate
            let outcomes = try await pool.withConnection(open: openConnection) { connection in
                try await gate.withPermit { try await self.apply(batch, over: connection) }
            }
            unreachableStreak.withLock { $0 = 0 }
            return outcomes
        } catch let error as IMAPError where !error.endsConnection {
            let event = RefusalPermanence.event(for: error)
            return batch.compactMap { $0.id.map { .init(id: $0, event: event) } }
        } catch let refusal as Refusal {
            let event: ChangeStateMachine.Event = refusal.permanent ? .refusedForGood(refusal.reason) : .refused(refusal.reason)
            return batch.compactMap { $0.id.map { .init(id: $0, event: event) } }
        } catch where store.describeStoreFailure(error) != nil {
            throw error
        } catch {
            let failures = unreachableStreak.withLock { streak in
                streak += 1
                return streak
            }
            activity.log.record("write-back: server unreachable (\(AccountSynchronizer.describe(error))); "
                                + "\(batch.count) change(s) wait", level: failures == 1 ? .warning : .info)
            return batch.compactMap { $0.id.map { .init(id: $0, event: .unreachable(failures: failures)) } }
        }
    }

    static let gatheringDelay = Duration.milliseconds(25)

    /// A change the server cannot take as it stands (its folder is gone...).
    struct Refusal: Error {
        var reason: String
        /// No retry can change it (a folder the store no longer has).
        var permanent = false
    }

    private func report(_ decisions: [(JournalChange, ChangeStateMachine.Decision)]) {
        var finished = 0
        for (row, decision) in decisions {
            switch decision {
            case .finish:
                finished += 1
            case .revert(let reason):
                let message = row.kind == .append ? keptAppendMessage(row, reason: reason)
                    : "\(describe(row)) reverted: \(reason)"
                activity.log.record("write-back: " + message, level: .error)
                activity.record(.changeReverted(message))
            case .update(.pending, let attempts, _, _, let error?) where attempts > 0:
                activity.log.record("write-back: \(row.kind.rawValue) refused (\(error)); retry \(attempts)", level: .warning)
            default:
                break
            }
        }
        if finished > 0 { activity.log.record("write-back: \(finished) change(s) applied") }
    }

    /// The change a refusal reverted, by its folders: the server's reason alone often names
    /// neither (Cyrus and Courier refuse a move into a folder deleted meanwhile with "NO
    /// [TRYCREATE] Mailbox does not exist.", where Dovecot names the mailbox).
    private func describe(_ row: JournalChange) -> String {
        let path = { (id: Int64?) in id.flatMap { try? self.store.folder(id: $0)?.path } ?? "a folder gone from the store" }
        switch row.kind {
        case .move, .copyFromAll: return "\(row.kind.rawValue) from \(path(row.folderId)) to \(path(row.targetFolderId))"
        case .flag: return "flag \(row.flag ?? "") in \(path(row.folderId))"
        case .expunge: return "expunge in \(path(row.folderId))"
        case .archiveToAll: return "archive from \(path(row.folderId)) to All Mail"
        case .append: return "append to \(path(row.targetFolderId))"
        case .createFolder: return "createFolder \(row.newPath ?? "")"
        case .deleteFolder: return "deleteFolder \(row.oldPath ?? "")"
        case .renameFolder: return "renameFolder \(row.oldPath ?? "") to \(row.newPath ?? "")"
        }
    }

    /// A refused APPEND's message stays in the store (`JournalFinisher.revert`): where.
    private func keptAppendMessage(_ row: JournalChange, reason: String) -> String {
        "\(describe(row)) refused: \(reason); the message is not on the server, "
            + "kept in \(LostAndFound.path)/"
    }
}
