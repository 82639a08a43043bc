import Activity
import Config
import Foundation
import IMAP
import Logging
import Store

/// One account's sync (FR-SYNC-04 state machine, exposed through `AccountActivity`):
/// connect, authenticate, discover folders, sync each folder, index, idle. A folder that
/// fails is logged, skipped and retried next cycle; an account that fails never touches
/// another account (each has its own synchronizer, pool and task).
public actor AccountSynchronizer {
    public let account: AccountConfig
    let store: SyncStore
    let activity: AccountActivity
    let pool: ConnectionPool
    let connector: AccountConnector
    nonisolated let downloader: ContentDownloader
    let logger: Logger
    nonisolated let timing: SyncTiming
    /// Held by a folder sync and by a write-back batch: the sync never sees a move half
    /// done, and a batch never runs under a folder sync's feet.
    nonisolated let mailboxGate = AsyncSemaphore(permits: 1)
    private var accountId: Int64?
    /// When a cycle recomputes threads; every pass, IDLE's and a single folder's too, times it.
    var rethreads: RethreadSchedule

    init(account: AccountConfig, store: SyncStore, activity: AccountActivity, global: AsyncSemaphore,
         timing: SyncTiming, maxConnections: Int) {
        self.account = account
        self.store = store
        self.activity = activity
        self.timing = timing
        rethreads = RethreadSchedule(spacing: timing.rethreadSpacing)
        var logger = Logger(label: "mailfs.sync.\(account.name)")
        logger[metadataKey: "account"] = "\(account.name)"
        self.logger = logger
        pool = ConnectionPool(maxConnections: maxConnections, global: global,
                              changed: { line in activity.record(.connectionsChanged(line)) })
        connector = AccountConnector(account: account, timing: timing, logger: logger,
                                     alerts: { text in activity.recordServerAlert(text) })
        downloader = ContentDownloader(
            store: store, pool: pool, connector: connector, activity: activity, timing: timing,
            cacheLimitBytes: Int64(account.settings.cacheLimitBytes), keepsUnfiledMessages: account.provider == .gmail)
    }

    /// How a sync cycle ended, for the loop that schedules the next one.
    public enum Outcome: Sendable, Equatable {
        case synced
        /// The network, the server or the disk: worth trying again soon.
        case failedTransiently
        /// Credentials, certificates, STARTTLS: only the user can fix it.
        case failedPermanently
    }

    /// Runs one full sync cycle and reports its outcome in `.status` and `.log`.
    @discardableResult
    public func syncOnce() async -> Outcome {
        let started = Date()
        activity.log.record("sync started")
        do {
            let accountId = try resolveAccountId()
            let failures = try await syncFolders(accountId: accountId)
            try applyRetention(accountId: accountId)
            try store.markSynced(accountId: accountId)
            let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
            activity.record(.synced(failedFolders: failures))
            activity.log.record("sync finished in \(seconds) s" + (failures.isEmpty ? "" : " with \(failures.count) failed folders"))
            return .synced
        } catch {
            let reason = Self.describe(error, store: store)
            activity.record(.syncFailed(reason: reason))
            activity.log.record("sync failed: \(reason)", level: .error)
            return Self.isPermanent(error) ? .failedPermanently : .failedTransiently
        }
    }

    static func isPermanent(_ error: any Error) -> Bool {
        if let failure = error as? AccountConnector.Failure { return !failure.isRetryable }
        if let error = error as? IMAPError { return error.isPermanent }
        return false
    }

    /// Sync-window retention: local copies of mail older than the window go (a smaller
    /// `sync_window_days` takes effect at the first sync after it); the server keeps all.
    private func applyRetention(accountId: Int64) throws {
        let days = account.settings.syncWindowDays
        let purged = try store.purgeOutsideWindow(accountId: accountId, arrivedBefore: SyncWindow.cutoff(days: days))
        guard purged > 0 else { return }
        activity.record(.purged(purged))
        activity.log.record("retention: \(purged) local copies of mail older than the \(days)-day window removed "
                            + "(flagged messages and pending changes kept; nothing deleted on the server)")
    }

    /// The account's send queue, when it has an SMTP server; generic servers also get the
    /// Sent copy appended (Gmail files it itself).
    nonisolated func makeSender(timing: SyncTiming) -> OutboxSender? {
        guard let smtp = account.smtp else { return nil }
        let sentCopies = account.provider == .gmail ? nil : SentCopyAppender(
            store: store, pool: pool, connector: connector, activity: activity,
            syncSent: { Task { await self.syncFolder(ofType: .sent, reason: "sent mail filed") } })
        return OutboxSender(account: account, endpoint: smtp, store: store, activity: activity, timing: timing,
                            sentCopies: sentCopies, logger: logger)
    }

    /// The applier of the account's journal of local changes; `reached` is told of each
    /// `WriteBackPoint` it passes.
    nonisolated func makeApplier(reached: @escaping @Sendable (WriteBackPoint) -> Void) -> ChangeApplier {
        ChangeApplier(account: account, store: store, pool: pool, activity: activity, gate: mailboxGate,
                      timing: timing, logger: logger, openConnection: { try await self.openConnection() },
                      reached: reached)
    }

    /// The IDLE watcher of this account's INBOX; its connection is outside the pool.
    nonisolated func idleMonitor(global: AsyncSemaphore, serverReturned: @escaping @Sendable () -> Void) -> IdleMonitor {
        IdleMonitor(connector: connector, activity: activity, global: global,
                    inboxChanged: { connection, inbox in await self.syncInbox(afterIdleOn: connection, selected: inbox) },
                    serverReturned: serverReturned,
                    refresh: account.provider == .gmail ? .seconds(25 * 60) : .seconds(20 * 60))
    }

    /// A connection for work beside the full sync (write-back, one folder's sync): its
    /// failed attempts show in `.status`, the phase stays the full sync's.
    func openConnection() async throws -> IMAPConnection {
        try await openConnection(phase: { _ in })
    }

    /// A connection of the full sync, which owns the phase `.status` shows.
    func openCycleConnection() async throws -> IMAPConnection {
        let activity = self.activity
        return try await openConnection(phase: { phase in
            activity.record(phase == .connecting ? .connecting : .authenticating)
        })
    }

    private func openConnection(phase: @escaping @Sendable (SyncPhase) -> Void) async throws -> IMAPConnection {
        let activity = self.activity
        return try await connector.open(phase: phase, retrying: { reason in
            activity.record(.connectionRetry(reason: reason))
            activity.log.record("connection failed: \(reason)", level: .warning)
        })
    }

    func resolveAccountId() throws -> Int64 {
        if let accountId { return accountId }
        let record = try store.ensureAccount(name: account.name, address: account.address, isOffline: false)
        accountId = record.id
        return record.id ?? -1
    }

    /// A failure that may come from the store: a full disk or a damaged file is said as such.
    static func describe(_ error: any Error, store: SyncStore) -> String {
        store.describeStoreFailure(error) ?? describe(error)
    }

    static func describe(_ error: any Error) -> String {
        if let failure = error as? AccountConnector.Failure { return failure.description }
        if let error = error as? IMAPError { return error.description }
        return "\(error)"
    }
}
