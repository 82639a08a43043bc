import Activity
import Foundation
import IMAP
import MailContracts
import MailCore
import Store
import Synchronization

/// One account's downloads of content on first read (FR-SYNC-08): single-flight per
/// content, connections from the account's pool (so downloads of different messages run
/// in parallel up to `max_connections`), retries with backoff within a bounded time until
/// the server begins sending, and the bytes streamed into the store's cache as they
/// arrive, so readers start at once (docs/ARCHITECTURE.md, "Lazy content").
final class ContentDownloader: Sendable {
    let store: SyncStore
    let pool: ConnectionPool
    let connector: AccountConnector
    let activity: AccountActivity
    let timing: SyncTiming
    let cacheLimitBytes: Int64
    let keepsUnfiledMessages: Bool
    /// What each running download delivered to the readers who asked so far; removed once
    /// the content is in the cache (or the download failed), so later readers find the
    /// cache file or start again.
    private let inFlight = Mutex<[ContentKey: Task<Result<ContentDelivery, ContentUnavailable>, Never>]>([:])

    init(store: SyncStore, pool: ConnectionPool, connector: AccountConnector, activity: AccountActivity,
         timing: SyncTiming, cacheLimitBytes: Int64, keepsUnfiledMessages: Bool) {
        self.store = store
        self.pool = pool
        self.connector = connector
        self.activity = activity
        self.timing = timing
        self.cacheLimitBytes = cacheLimitBytes
        self.keepsUnfiledMessages = keepsUnfiledMessages
    }

    /// The content from the cache, or its download once the server began sending it:
    /// one download however many readers ask at a time.
    func content(_ key: ContentKey) async -> Result<ContentDelivery, ContentUnavailable> {
        let task = inFlight.withLock { running in
            if let task = running[key] { return task }
            // Unstructured: a reader that gives up (Ctrl-C) does not cancel the others' download.
            let task = Task { await self.start(key) }
            running[key] = task
            return task
        }
        return await task.value
    }

    /// Starts the download and returns when its first byte arrived or it ended before.
    private func start(_ key: ContentKey) async -> Result<ContentDelivery, ContentUnavailable> {
        let stream: ContentStream
        let locations: [ServerLocation]
        let encoding: String
        do {
            // A reader that found no file just before another download finished.
            if let cached = try store.cachedContent(key) {
                landed(key)
                return .success(.cached(cached))
            }
            locations = try store.serverLocations(emailId: key.emailId)
            guard !locations.isEmpty else {
                landed(key)
                return .failure(.gone)
            }
            encoding = try self.encoding(of: key)
            stream = try store.startContent(key)
        } catch {
            landed(key)
            return .failure(report(key, .failed(AccountSynchronizer.describe(error, store: store))))
        }
        let (began, beginning) = AsyncStream<Result<ContentDelivery, ContentUnavailable>>.makeStream()
        let writer = PartWriter(stream: stream, encoding: encoding) {
            beginning.yield(.success(.streaming(stream)))
            beginning.finish()
        }
        Task {
            let failure = await self.download(key, into: writer, from: locations)
            if let failure {
                beginning.yield(.failure(failure))
                beginning.finish()
            }
        }
        for await first in began { return first }
        return .failure(.failed("the download of \(key) ended without a word"))
    }

    /// Downloads into `writer` and keeps the result; nil once the content is cached,
    /// else why not (the stream's readers learn the same).
    private func download(_ key: ContentKey, into writer: PartWriter, from locations: [ServerLocation]) async -> ContentUnavailable? {
        let started = ContinuousClock.now
        do {
            guard try await fetchWithRetries(key, into: writer, from: locations) else {
                landed(key)
                store.abandonContent(writer.stream, because: .gone)
                try forgetDeleted(key, at: locations)
                return .gone
            }
            try store.finishContent(writer.stream, limitBytes: cacheLimitBytes) { file in
                let elapsed = (ContinuousClock.now - started).formatted(.units(allowed: [.milliseconds]))
                activity.log.record("downloaded \(key) (\(file.size) bytes) in \(elapsed)")
            }
            landed(key)
            return nil
        } catch {
            let failure = error as? ContentUnavailable ?? .failed(AccountSynchronizer.describe(error, store: store))
            landed(key)
            store.abandonContent(writer.stream, because: report(key, failure))
            return failure
        }
    }

    /// The download of `key` is over: the next reader finds the cache file or starts anew.
    private func landed(_ key: ContentKey) {
        _ = inFlight.withLock { $0.removeValue(forKey: key) }
    }

    /// FR-SYNC-08's three retries with backoff, all within the connect timeout plus the
    /// delays: a server that is down never holds a reader longer than that. Only until
    /// the server begins sending: after that readers may hold bytes of this attempt, and a
    /// failure ends the download (the next open starts a fresh one). False when no folder
    /// has the message any more.
    private func fetchWithRetries(_ key: ContentKey, into writer: PartWriter, from locations: [ServerLocation]) async throws -> Bool {
        let deadline = ContinuousClock.now + timing.connectTimeout + timing.downloadRetryDelays.reduce(.zero, +)
        var attempt = 0
        while true {
            do {
                return try await fetchOnce(key, into: writer, from: locations, deadline: deadline)
            } catch let failure as AccountConnector.Failure where failure.isRetryable && !writer.hasBegun {
                try retryOrGiveUp(after: failure.description, attempt: attempt, deadline: deadline)
            } catch let failure as IMAPError where failure.endsConnection && !writer.hasBegun {
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

    /// Looks for the message in each folder that holds it and streams the section from
    /// the first that has it into `writer`; false when none has it any more.
    private func fetchOnce(_ key: ContentKey, into writer: PartWriter, from locations: [ServerLocation],
                           deadline: ContinuousClock.Instant) async throws -> Bool {
        var connector = self.connector
        connector.timing.connectTimeout = min(timing.connectTimeout, max(deadline - .now, .seconds(1)))
        let section = BodySection(key.partId ?? "")
        let sink = LiteralSink(section: section) { writer.receive($0) }
        return try await pool.withConnection(open: { [connector] in try await connector.openOnce(phase: { _ in }) }) { connection in
            // The pool runs this again on a fresh connection when a reused one died: not
            // once bytes went to readers.
            guard !writer.hasBegun else { throw ContentUnavailable.failed("the connection closed during the download") }
            for location in locations {
                guard let uid = UInt32(exactly: location.uid),
                      try await Self.examine(location, on: connection) else { continue }
                let fetched = try await connection.uidFetch(uid, section: section, into: sink)
                if !writer.hasBegun, let bytes = fetched?.body(section) { writer.receiveWhole(bytes, uid: uid) }
                guard writer.hasBegun else { continue }
                try writer.finish(uid: uid)
                return true
            }
            return false
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

    /// The part's Content-Transfer-Encoding as sync recorded it; a whole message is
    /// served as the server sends it.
    private func encoding(of key: ContentKey) throws -> String {
        guard let partId = key.partId else { return "7bit" }
        let attachment = try store.attachments(ofEmail: key.emailId).first { $0.partId == partId }
        return attachment?.encoding ?? "7bit"
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
