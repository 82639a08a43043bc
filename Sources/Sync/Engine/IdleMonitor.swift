import Activity
import Foundation
import IMAP
import Logging
import Store

/// FR-SYNC-03: one IDLE connection per account on its INBOX. New mail (EXISTS), expunges
/// and flag changes wake it; the new mail is fetched at once over this connection, which
/// has the INBOX selected, then an incremental sync of the INBOX runs; IDLE is
/// re-issued every `refresh` (servers drop long IDLEs); a dropped connection is re-made
/// with backoff from 2 s doubling to 60 s. `.status` shows `idle:` active, reconnecting,
/// disconnected or unavailable (the server has no IDLE).
struct IdleMonitor: Sendable {
    let connector: AccountConnector
    let activity: AccountActivity
    let global: AsyncSemaphore
    /// Stores the INBOX's new mail over the IDLE connection (`selected` is its INBOX), then
    /// runs the incremental sync of the INBOX.
    let inboxChanged: @Sendable (_ connection: IMAPConnection, _ selected: SelectedMailbox) async -> Void
    var refresh: Duration = .seconds(20 * 60)
    static let firstBackoff: Duration = .seconds(2)
    static let maxBackoff: Duration = .seconds(60)

    /// Runs until the task is cancelled.
    func run() async {
        var backoff = Self.firstBackoff
        while !Task.isCancelled {
            await global.acquire()
            let outcome = await session()
            global.release()
            switch outcome {
            case .unavailable, .cancelled:
                return
            case .failed(let reason, let established):
                if established { backoff = Self.firstBackoff }
                activity.record(.idleChanged(.reconnecting))
                activity.log.record("IDLE connection lost (\(reason)); reconnecting in \(backoff)", level: .warning)
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, Self.maxBackoff)
            }
        }
        activity.record(.idleChanged(.disconnected))
    }

    private enum SessionEnd { case unavailable, cancelled, failed(String, established: Bool) }

    /// One connection: select INBOX, then IDLE until it fails.
    private func session() async -> SessionEnd {
        let connection: IMAPConnection
        do {
            connection = try await connector.open { _ in }
        } catch {
            return .failed(error.description, established: false)
        }
        defer { Task { await connection.logout() } }
        guard connection.supports(.idle) else {
            activity.record(.idleChanged(.unavailable))
            activity.log.record("the server does not offer IDLE: new mail arrives with the periodic sync")
            return .unavailable
        }
        var established = false
        do {
            let inbox = try await connection.select("INBOX")
            established = true
            activity.record(.idleChanged(.active))
            while !Task.isCancelled {
                // Cancelling the monitor ends the IDLE at once (DONE), not at the next refresh.
                let outcome = try await withTaskCancellationHandler {
                    try await connection.idle(maximum: refresh)
                } onCancel: {
                    connection.stopIdle()
                }
                switch outcome {
                case .changed: await inboxChanged(connection, inbox)
                case .timedOut: continue
                case .stopped: return .cancelled
                }
            }
            return .cancelled
        } catch {
            return .failed(AccountSynchronizer.describe(error), established: established)
        }
    }
}
