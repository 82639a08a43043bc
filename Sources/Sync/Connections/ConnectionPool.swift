import IMAP
import Synchronization

/// The IMAP connections of one account (FR-SYNC-09): at most `maxConnections` open,
/// reused across operations; callers queue when all are busy. Every connection also
/// holds a permit of the process-wide limit (FR-SYNC-16: 30 in all), so one account can
/// never starve the others of more than its own share. The pool owns the connections
/// line of `.status`: `changed` hears the new line after every change.
final class ConnectionPool: Sendable {
    let maxConnections: Int
    private let permits: AsyncSemaphore
    private let global: AsyncSemaphore
    private let idle = Mutex<[IMAPConnection]>([])
    private let active = Mutex(0)
    private let changed: @Sendable (String) -> Void

    init(maxConnections: Int, global: AsyncSemaphore, changed: @escaping @Sendable (String) -> Void = { _ in }) {
        self.maxConnections = maxConnections
        permits = AsyncSemaphore(permits: maxConnections)
        self.global = global
        self.changed = changed
    }

    /// Runs `body` with a connection: an idle one when there is one, else a new one from
    /// `open`. A connection whose operation failed is closed, never reused. Idle ones the
    /// server closed meanwhile (a restart) are dropped; if a reused one dies under `body`,
    /// `body` runs once more on a fresh connection (what the pool runs is idempotent:
    /// syncs, downloads, journal batches that check the server first).
    func withConnection<T: Sendable>(
        open: @Sendable () async throws -> IMAPConnection,
        _ body: @Sendable (IMAPConnection) async throws -> T
    ) async throws -> T {
        await permits.acquire()
        defer { permits.release() }
        setActive(by: 1)
        defer { setActive(by: -1) }
        if let reused = await liveIdleConnection() {
            do {
                return try await run(body, on: reused)
            } catch let error as IMAPError where error.endsConnection {
                // Fall through to a fresh connection.
            }
        }
        await global.acquire()
        let fresh: IMAPConnection
        do {
            fresh = try await open()
        } catch {
            global.release()
            throw error
        }
        return try await run(body, on: fresh)
    }

    private func setActive(by delta: Int) {
        active.withLock { $0 += delta }
        changed(statusLine)
    }

    /// An idle connection whose socket is still open; closed ones give back their permit.
    private func liveIdleConnection() async -> IMAPConnection? {
        defer { changed(statusLine) }
        while let candidate = idle.withLock({ $0.popLast() }) {
            if candidate.isOpen { return candidate }
            await candidate.close()
            global.release()
        }
        return nil
    }

    /// Runs `body`; the connection goes back to the idle list, or is closed if it failed.
    private func run<T: Sendable>(_ body: @Sendable (IMAPConnection) async throws -> T,
                                  on connection: IMAPConnection) async throws -> T {
        do {
            let result = try await body(connection)
            idle.withLock { $0.append(connection) }
            return result
        } catch {
            await connection.close()
            global.release()
            throw error
        }
    }

    /// Logs out of every idle connection (unmount, account removal).
    func drain() async {
        let connections = idle.withLock { idle in
            defer { idle.removeAll() }
            return idle
        }
        for connection in connections {
            await connection.logout()
            global.release()
        }
        changed(statusLine)
    }

    /// `2 active, 5 max, 1 idle, 0 waiting` for `.status`.
    var statusLine: String {
        let activeCount = active.withLock { $0 }
        let idleCount = idle.withLock { $0.count }
        let waiting = permits.counts.waiting
        return "\(activeCount) active, \(maxConnections) max, \(idleCount) idle, \(waiting) waiting"
    }
}
