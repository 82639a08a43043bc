import Activity
import Foundation
import IMAP
import MailCore
import Store
import Synchronization

/// One account's downloads of content on first read (FR-SYNC-08): single-flight per
/// content, connections from the account's pool (so downloads of different messages run
/// in parallel up to `max_connections`), retries with backoff within a bounded time, and
/// the result kept in the store's cache.
final class ContentDownloader: Sendable {
    let store: MailStore
    let pool: ConnectionPool
    let connector: AccountConnector
    let activity: AccountActivity
    let timing: SyncTiming
    let cacheLimitBytes: Int64
    let keepsUnfiledMessages: Bool
    private let inFlight = Mutex<[ContentKey: Task<Result<CachedFile, ContentUnavailable>, Never>]>([:])

    init(store: MailStore, pool: ConnectionPool, connector: AccountConnector, activity: AccountActivity,
         timing: SyncTiming, cacheLimitBytes: Int64, keepsUnfiledMessages: Bool) {
        self.store = store
        self.pool = pool
        self.connector = connector
        self.activity = activity
        self.timing = timing
        self.cacheLimitBytes = cacheLimitBytes
        self.keepsUnfiledMessages = keepsUnfiledMessages
    }

    /// The content, from the cache or downloaded once however many readers ask at a time.
    func content(_ key: ContentKey) async -> Result<CachedFile, ContentUnavailable> {
        let task = inFlight.withLock { running in
            if let task = running[key] { return task }
            // Unstructured: a reader that gives up (Ctrl-C) does not cancel the others' download.
            let task = Task { await self.download(key) }
            running[key] = task
            return task
        }
        return await task.value
    }

    private func download(_ key: ContentKey) async -> Result<CachedFile, ContentUnavailable> {
        defer { _ = inFlight.withLock { $0.removeValue(forKey: key) } }
        do {
            // A reader that found no file just before another download finished.
            if let cached = try store.cachedContent(key) { return .success(cached) }
            let locations = try store.serverLocations(emailId: key.emailId)
            guard !locations.isEmpty else { return .failure(.gone) }
            let started = ContinuousClock.now
            guard let bytes = try await fetchWithRetries(key, from: locations) else {
                try forgetDeleted(key, at: locations)
                return .failure(.gone)
            }
            let file = try store.storeContent(try decoded(bytes, for: key), for: key, limitBytes: cacheLimitBytes)
            let elapsed = (ContinuousClock.now - started).formatted(.units(allowed: [.milliseconds]))
            activity.log.record("downloaded \(key) (\(file.size) bytes) in \(elapsed)")
            return .success(file)
        } catch let failure as ContentUnavailable {
            return .failure(report(key, failure))
        } catch {
            return .failure(report(key, .failed(AccountSynchronizer.describe(error, store: store))))
        }
    }

    /// FR-SYNC-08's three retries with backoff, all within the connect timeout plus the
    /// delays: a server that is down never holds a reader longer than that.
    private func fetchWithRetries(_ key: ContentKey, from locations: [ServerLocation]) async throws -> [UInt8]? {
        let deadline = ContinuousClock.now + timing.connectTimeout + timing.downloadRetryDelays.reduce(.zero, +)
        var attempt = 0
        while true {
            do {
                return try await fetchOnce(key, from: locations, deadline: deadline)
            } catch let failure as AccountConnector.Failure where failure.isRetryable {
                try retryOrGiveUp(after: failure.description, attempt: attempt, deadline: deadline)
            } catch let failure as IMAPError where failure.endsConnection {
                try retryOrGiveUp(after: failure.description, attempt: attempt, deadline: deadline)
            }
            try? await Task.sleep(for: timing.downloadRetryDelays[attempt])
            attempt += 1
        }
    }

    private func retryOrGiveUp(after reason: String, attempt: Int, deadline: ContinuousClock.Instant) throws {
        guard attempt < timing.downloadRetryDelays.count,
              ContinuousClock.now + timing.downloadRetryDelays[attempt] < deadline else {
            throw ContentUnavailable.failed("download failed after \(attempt + 1) attempts: \(reason)")
        }
        activity.log.record("download attempt \(attempt + 1) failed: \(reason); retrying", level: .warning)
    }

    /// Looks for the message in each folder that holds it; nil when none has it any more.
    private func fetchOnce(_ key: ContentKey, from locations: [ServerLocation],
                           deadline: ContinuousClock.Instant) async throws -> [UInt8]? {
        var connector = self.connector
        connector.timing.connectTimeout = min(timing.connectTimeout, max(deadline - .now, .seconds(1)))
        let section = BodySection(key.partId ?? "")
        return try await pool.withConnection(open: { [connector] in try await connector.openOnce(phase: { _ in }) }) { connection in
            for location in locations {
                guard let uid = UInt32(exactly: location.uid),
                      try await Self.examine(location, on: connection) else { continue }
                let fetched = try await connection.uidFetch(UIDSet(uids: [uid]), items: ["BODY.PEEK[\(section.spec)]"])
                if let bytes = fetched.first?.body(section) { return bytes }
            }
            return nil
        }
    }

    /// Opens the folder read-only; false when it is gone or was renumbered (UIDVALIDITY)
    /// since the sync recorded the UID, so the UID means nothing there.
    private static func examine(_ location: ServerLocation, on connection: IMAPConnection) async throws -> Bool {
        do {
            let mailbox = try await connection.examine(location.imapPath)
            guard let stored = location.uidValidity, let current = mailbox.uidValidity else { return true }
            return stored == Int64(current)
        } catch let error where !error.endsConnection {
            return false
        }
    }

    private func decoded(_ bytes: [UInt8], for key: ContentKey) throws -> [UInt8] {
        guard let partId = key.partId else { return bytes }
        let attachment = try store.attachments(ofEmail: key.emailId).first { $0.partId == partId }
        return MessageParser.decodeTransferEncoding(bytes, encoding: attachment?.encoding ?? "7bit")
    }

    /// The server no longer has the message: it leaves those folders now, not at the next
    /// sync, so the file disappears from the listing at once.
    private func forgetDeleted(_ key: ContentKey, at locations: [ServerLocation]) throws {
        for location in locations {
            _ = try store.removeFromFolder(folderId: location.folderId, uids: [location.uid])
        }
        if !keepsUnfiledMessages, let accountId = try store.accountId(ofEmail: key.emailId) {
            try store.purgeUnfiled(accountId: accountId)
        }
        activity.log.record("\(key) is no longer on the server; removed")
    }

    private func report(_ key: ContentKey, _ failure: ContentUnavailable) -> ContentUnavailable {
        guard case .failed(let reason) = failure else { return failure }
        activity.log.record("download of \(key) failed: \(reason)", level: .error)
        activity.record(.downloadFailed("download of \(key) failed: \(reason)"))
        return failure
    }
}
