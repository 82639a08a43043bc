extension IMAPConnection {
    /// IDLE (RFC 2177): waits for news about the selected mailbox, for at most `maximum`.
    ///
    ///     while true {
    ///         switch try await imap.idle(maximum: .seconds(20 * 60)) {
    ///         case .changed: try await syncInbox()   // the news itself is on `events`
    ///         case .timedOut: continue               // servers drop IDLEs after ~30 min
    ///         case .stopped: return
    ///         }
    ///     }
    ///
    /// Returns when EXISTS, EXPUNGE, FETCH or VANISHED arrives, when `maximum` elapses
    /// (re-issue: every 20 minutes, Gmail 25), when `stopIdle()` is called, when another
    /// command is issued on this connection, or when the calling task is cancelled (then
    /// `.stopped`, not a cancellation error). It always sends DONE and reads the tagged
    /// reply first, so the connection is ready for the next command. Keepalives
    /// (`* OK Still here`) are ignored and silence while idling does not trip the response
    /// timeout: the allowance is `maximum` plus 2 minutes (docs/IMAP-QUIRKS.md §3.10). A BYE or a
    /// dropped connection throws as for any command.
    public func idle(maximum: Duration) async throws(IMAPError) -> IdleOutcome {
        guard supports(.idle) else { throw .capabilityMissing(.idle) }
        let result: CommandResult
        do {
            result = try await withTaskCancellationHandler {
                try await run("IDLE", configure: { $0.idle = IdleState(maximum: maximum) }) { $0.raw("IDLE") }
            } onCancel: {
                stopIdle()
            }
        } catch {
            throw IMAPClientHandler.imapError(for: error)
        }
        return try result.requireOK().idleOutcome ?? .timedOut
    }

    /// Ends a running IDLE (its `idle(maximum:)` returns `.stopped`); callable from any
    /// task. Does nothing when no IDLE is running or waiting for the server's `+`.
    public nonisolated func stopIdle() {
        channel.triggerUserOutboundEvent(IMAPClientHandler.EndIdle(reason: .stopped), promise: nil)
    }
}
