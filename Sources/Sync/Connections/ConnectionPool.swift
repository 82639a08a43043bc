import IMAP
import Synchronization

/// The IMAP connections of one account (FR-SYNC-09): at most `maxConnections` open,
/// reused across operations; callers queue when all are busy. Every connection also
/// holds a permit of the process-wide limit (FR-SYNC-16: 30 in all), so one account can
/// never starve the others of more than its own share.
final class ConnectionPool: Sendable {
    let maxConnections: Int
    private let permits: AsyncSemaphore
    private let global: AsyncSemaphore
    private let idle = Mutex<[IMAPConnection]>([])
    private let active = Mutex(0)

    init(maxConnections: Int, global: AsyncSemaphore) {
        self.maxConnections = maxConnections
        permits = AsyncSemaphore(permits: maxConnections)
        self.global = global
    }

    /// Runs `body` with a connection: an idle one when there is one, else a new one from
    /// `open`. A connection whose operation failed is closed, never reused.
    func withConnection<T: Sendable>(
        open: @Sendable () async throws -> IMAPConnection,
        _ body: @Sendable (IMAPConnection) async throws -> T
    ) async throws -> T {
        await permits.acquire()
        defer { permits.release() }
        let connection: IMAPConnection
        if let reused = idle.withLock({ $0.popLast() }) {
            connection = reused
        } else {
            await global.acquire()
            do {
                connection = try await open()
            } catch {
                global.release()
                throw error
            }
        }
        active.withLock { $0 += 1 }
        defer { active.withLock { $0 -= 1 } }
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
    }

    /// `2 active, 5 max, 1 idle, 0 waiting` for `.status`.
    var statusLine: String {
        let activeCount = active.withLock { $0 }
        let idleCount = idle.withLock { $0.count }
        let waiting = permits.counts.waiting
        return "\(activeCount) active, \(maxConnections) max, \(idleCount) idle, \(waiting) waiting"
    }
}
