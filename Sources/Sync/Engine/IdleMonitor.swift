import Activity
import Foundation
import IMAP
import Logging
import Store

/// FR-SYNC-03: one IDLE connection per account on its INBOX. New mail (EXISTS), expunges
/// and flag changes wake it; the new mail is fetched at once over this connection, which
/// has the INBOX selected, then an incremental sync of the INBOX runs; IDLE is
/// re-issued every `refresh` (servers drop long IDLEs). `.status` shows `idle:` active,
/// reconnecting, disconnected or unavailable (the server has no IDLE).
///
/// A dropped connection is re-made with backoff from 2 s doubling to 60 s; while the
/// server cannot be reached at all (refused, timed out, reset before login) it is tried
/// every `unreachableRetry` instead, since such an attempt costs the server no login, and
/// `.status` says `online: no` with the reason. IDLE reports only what happens after it
/// starts, so every session first fetches what arrived since the INBOX was last synced
/// (`inboxChanged`): the first one, what came during the rest of the account's first sync;
/// one that follows a lost session, what came meanwhile, and it also asks for a full sync
/// of the account (`serverReturned`).
struct IdleMonitor: Sendable {
    let connector: AccountConnector
    let activity: AccountActivity
    let global: AsyncSemaphore
    /// Stores the INBOX's new mail over the IDLE connection (`selected` is its INBOX), then
    /// runs the incremental sync of the INBOX.
    let inboxChanged: @Sendable (_ connection: IMAPConnection, _ selected: SelectedMailbox) async -> Void
    /// The server answers again after a lost session: the account's other folders are due.
    let serverReturned: @Sendable () -> Void
    var refresh: Duration = .seconds(20 * 60)
    static let firstBackoff: Duration = .seconds(2)
    static let maxBackoff: Duration = .seconds(60)
    static let unreachableRetry = AccountConnector.unreachableRetry
    static let unreachableLogEvery = 12

    /// Runs until the task is cancelled.
    func run() async {
        var backoff = Self.firstBackoff
        var afterLoss = false
        var unreachableAttempts = 0
        while !Task.isCancelled {
            await global.acquire()
            let outcome = await session(catchingUp: afterLoss)
            global.release()
            switch outcome {
            case .unavailable, .cancelled:
                return
            case .unreachable(let reason):
                afterLoss = true
                activity.record(.idleChanged(.reconnecting))
                activity.record(.serverUnreachable(reason: reason))
                // A line a minute while it lasts: an outage of hours must not push every
                // other event out of the 500 lines of `.log`.
                if unreachableAttempts % Self.unreachableLogEvery == 0 {
                    activity.log.record("IDLE: the server cannot be reached (\(reason)); trying every \(Self.unreachableRetry)",
                                        level: .warning)
                }
                unreachableAttempts += 1
                try? await Task.sleep(for: Self.unreachableRetry)
            case .failed(let reason, let established):
                afterLoss = true
                unreachableAttempts = 0
                if established { backoff = Self.firstBackoff }
                activity.record(.idleChanged(.reconnecting))
                activity.log.record("IDLE connection lost (\(reason)); reconnecting in \(backoff)", level: .warning)
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, Self.maxBackoff)
            }
        }
        activity.record(.idleChanged(.disconnected))
    }

    private enum SessionEnd { case unavailable, cancelled, unreachable(String), failed(String, established: Bool) }

    /// One connection: select INBOX, catch up, then IDLE until it fails.
    /// One connection attempt only: the loop above decides when to try again.
    private func session(catchingUp: Bool) async -> SessionEnd {
        let connection: IMAPConnection
        do {
            connection = try await connector.openOnce { _ in }
        } catch {
            return error.isRetryable ? .unreachable(error.description) : .failed(error.description, established: false)
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
            if catchingUp {
                activity.log.record("IDLE: connected again; fetching what arrived meanwhile")
                serverReturned()
            }
            await inboxChanged(connection, inbox)
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
