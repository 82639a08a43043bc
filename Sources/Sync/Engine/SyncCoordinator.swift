import Activity
import Config
import Foundation
import MailContracts
import Store
import Synchronization

/// Runs every configured account's sync concurrently and independently (FR-SYNC-11):
/// one task per account, each looping "sync, then wait for the poll interval or a
/// trigger". A slow, failing or misconfigured account never delays another.
public final class SyncCoordinator: Sendable, WriteBackService {
    /// What runs for one configured account.
    struct AccountEntry: Sendable {
        let synchronizer: AccountSynchronizer
        let trigger: SyncTrigger
        /// nil when the account has no `[accounts.NAME.smtp]`.
        let sender: OutboxSender?
        let applier: ChangeApplier
    }

    let accounts: [String: AccountEntry]
    let store: SyncStore
    /// Store account ids already resolved to their names (an id is never reused and an
    /// account never renamed), so the tree waking an applier after every `rm` reads nothing.
    private let accountNames = Mutex<[Int64: String]>([:])
    private let global: AsyncSemaphore
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// FR-SYNC-16: at most 30 IMAP connections across all accounts.
    public static let globalConnectionLimit = 30

    /// Each account records what happens into its activity in `activities` (the mount shows
    /// it); its timing comes from its settings unless `timing` overrides it. Every account's
    /// write-back tells `writeBackReached` of each `WriteBackPoint` it passes (tests stop there).
    public init(config: MailfsConfig, store: SyncStore, activities: AccountActivities, timing: SyncTiming? = nil,
                writeBackReached: @escaping @Sendable (WriteBackPoint) -> Void = { _ in }) {
        let global = AsyncSemaphore(permits: Self.globalConnectionLimit)
        var accounts: [String: AccountEntry] = [:]
        for account in config.accounts {
            let accountTiming = timing ?? SyncTiming(account.settings)
            let synchronizer = AccountSynchronizer(
                account: account, store: store,
                activity: activities.activity(named: account.name, address: account.address), global: global,
                timing: accountTiming, maxConnections: account.settings.maxConnections)
            let trigger = SyncTrigger()
            accounts[account.name] = AccountEntry(
                synchronizer: synchronizer, trigger: trigger,
                sender: synchronizer.makeSender(timing: accountTiming),
                applier: synchronizer.makeApplier(reached: writeBackReached))
        }
        self.accounts = accounts
        self.global = global
        self.store = store
    }

    /// Starts the per-account loops; each syncs at once, then every poll interval, and
    /// watches its INBOX with IDLE once the first sync is done.
    public func start() {
        let global = self.global
        let senders = accounts.values.compactMap(\.sender).map { sender in
            Task.detached { await sender.run() }
        }
        let appliers = accounts.values.map(\.applier).map { applier in
            Task.detached { await applier.run() }
        }
        let started = accounts.values.map { entry in
            let (synchronizer, trigger, sender, applier) = (entry.synchronizer, entry.trigger, entry.sender, entry.applier)
            return Task.detached {
                let interval = synchronizer.timing.pollInterval
                var retry = RetryBackoff()
                var outcome = await synchronizer.syncOnce()
                // A sync may have found the Sent folder a delivered message's copy waits for,
                // or reached a server the journal was waiting for.
                sender?.trigger.fire()
                applier.trigger.fire()
                let idle = Task { await synchronizer.idleMonitor(global: global, serverReturned: { trigger.fire() }).run() }
                await withTaskCancellationHandler {
                    while !Task.isCancelled {
                        // A server that was down, or a full disk, is tried again within a minute.
                        await trigger.wait(upTo: outcome == .failedTransiently ? retry.next() : interval)
                        guard !Task.isCancelled else { break }
                        outcome = await synchronizer.syncOnce()
                        if outcome == .synced { retry = RetryBackoff() }
                        sender?.trigger.fire()
                        applier.trigger.fire()
                    }
                } onCancel: {
                    idle.cancel()
                    trigger.fire()
                }
                // The IDLE watcher reads and writes the store: stopping the account waits for it.
                await idle.value
            }
        }
        tasks.withLock { $0 += started + senders + appliers }
    }

    /// `echo sync > ACCOUNT/.control`: sync now (coalesced with one already pending).
    @discardableResult
    public func trigger(account: String) -> Bool {
        guard let entry = accounts[account] else { return false }
        entry.trigger.fire()
        return true
    }

    /// Runs one sync of one account and returns when it is done (`mailfs sync`, tests).
    public func syncOnce(account: String) async -> Bool {
        guard let entry = accounts[account] else { return false }
        await entry.synchronizer.syncOnce()
        return true
    }

    /// Applies the account's due journal changes now and returns when none is due (tests
    /// drive the journal with it, as with `syncOnce`). False for an unknown account or a
    /// store error.
    public func applyJournal(account: String) async -> Bool {
        guard let applier = accounts[account]?.applier else { return false }
        do {
            _ = try await applier.applyDue(accountId: try applier.resolveAccountId())
            return true
        } catch {
            return false
        }
    }

    /// The configured account's journal applier wakes up (the tree recorded a change).
    public func journalChanged(accountId: Int64) {
        entry(accountId: accountId)?.applier.trigger.fire()
    }

    /// The configured account behind a store account id; nil for an offline (imported) one.
    func entry(accountId: Int64) -> AccountEntry? {
        if let name = accountNames.withLock({ $0[accountId] }) { return accounts[name] }
        guard let name = try? store.accountName(id: accountId) else { return nil }
        accountNames.withLock { $0[accountId] = name }
        return accounts[name]
    }

    /// Cancels every account's loops, and waits up to `limit` seconds for them to end (a
    /// command under way on the network ends its task only when it returns, or at its
    /// timeout). Returns whether they all did: only then may a mount close its store.
    @discardableResult
    public func stop(waitingUpTo limit: TimeInterval = 0) -> Bool {
        let stopping = tasks.withLock { tasks in
            defer { tasks.removeAll() }
            for task in tasks { task.cancel() }
            return tasks
        }
        guard limit > 0 else { return stopping.isEmpty }
        let ended = DispatchSemaphore(value: 0)
        Task.detached {
            for task in stopping { await task.value }
            ended.signal()
        }
        return ended.wait(timeout: .now() + limit) == .success
    }
}

/// Waits between retries of a failed sync: 2 s, doubling to 60 s.
struct RetryBackoff: Sendable {
    private var current: Duration = .seconds(2)
    static let maximum: Duration = .seconds(60)

    mutating func next() -> Duration {
        defer { current = min(current * 2, Self.maximum) }
        return current
    }
}
