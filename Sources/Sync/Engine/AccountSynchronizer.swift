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
    let store: MailStore
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

    init(account: AccountConfig, store: MailStore, activity: AccountActivity, global: AsyncSemaphore,
         timing: SyncTiming, maxConnections: Int) {
        self.account = account
        self.store = store
        self.activity = activity
        self.timing = timing
        var logger = Logger(label: "mailfs.sync.\(account.name)")
        logger[metadataKey: "account"] = "\(account.name)"
        self.logger = logger
        pool = ConnectionPool(maxConnections: maxConnections, global: global)
        connector = AccountConnector(account: account, timing: timing, logger: logger)
        downloader = ContentDownloader(
            store: store, pool: pool, connector: connector, activity: activity, timing: timing,
            cacheLimitBytes: Int64(account.settings.cacheLimitBytes), keepsUnfiledMessages: account.provider == .gmail)
    }

    /// Runs one full sync cycle and reports its outcome in `.status` and `.log`.
    public func syncOnce() async {
        let started = Date()
        activity.log.record("sync started")
        do {
            let accountId = try resolveAccountId()
            let failures = try await pool.withConnection(open: openConnection) { connection in
                try await self.syncFolders(over: connection, accountId: accountId)
            }
            if account.provider != .gmail { try store.purgeUnfiled(accountId: accountId) }
            try store.markSynced(accountId: accountId)
            let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
            activity.update { state in
                state.online = true
                state.phase = .idle
                state.progress = "none"
                state.lastError = failures.isEmpty ? nil : "\(failures.count) folders failed: " + failures.joined(separator: "; ")
            }
            activity.log.record("sync finished in \(seconds) s" + (failures.isEmpty ? "" : " with \(failures.count) failed folders"))
        } catch {
            let reason = Self.describe(error)
            activity.update { state in
                state.online = false
                state.phase = .error
                state.lastError = reason
            }
            activity.log.record("sync failed: \(reason)", level: "error")
        }
        activity.update { $0.connections = pool.statusLine }
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

    /// The applier of the account's journal of local changes.
    nonisolated func makeApplier() -> ChangeApplier {
        ChangeApplier(account: account, store: store, pool: pool, activity: activity, gate: mailboxGate,
                      timing: timing, logger: logger, openConnection: { try await self.openConnection() })
    }

    /// The IDLE watcher of this account's INBOX; its connection is outside the pool.
    nonisolated func idleMonitor(global: AsyncSemaphore) -> IdleMonitor {
        IdleMonitor(connector: connector, activity: activity, global: global,
                    inboxChanged: { await self.syncFolder(ofType: .inbox, reason: "IDLE") },
                    refresh: account.provider == .gmail ? .seconds(25 * 60) : .seconds(20 * 60))
    }

    func openConnection() async throws -> IMAPConnection {
        let activity = self.activity
        let pool = self.pool
        return try await connector.open { phase in
            activity.update { state in
                state.phase = phase
                state.connections = pool.statusLine
            }
        }
    }

    func resolveAccountId() throws -> Int64 {
        if let accountId { return accountId }
        let record = try store.ensureAccount(name: account.name, address: account.address, isOffline: false)
        accountId = record.id
        return record.id ?? -1
    }

    static func describe(_ error: any Error) -> String {
        if let failure = error as? AccountConnector.Failure { return failure.description }
        if let error = error as? IMAPError { return error.description }
        return "\(error)"
    }
}
