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
    /// (re-issue: every 20 minutes, Gmail 25), when `stopIdle()` is called, or when another
    /// command is issued on this connection. It always sends DONE and reads the tagged
    /// reply first, so the connection is ready for the next command. Keepalives
    /// (`* OK Still here`) are ignored; the server may stay silent for `maximum` plus
    /// 2 minutes (IMAP-QUIRKS §3) before the connection is closed with
    /// `IMAPError.timedOut`. A BYE or a dropped connection throws as for any command.
    public func idle(maximum: Duration) async throws(IMAPError) -> IdleOutcome {
        guard supports("IDLE") else { throw .capabilityMissing("IDLE") }
        let result = try await run("IDLE", configure: { $0.idle = IdleState(maximum: maximum) }) {
            $0.raw("IDLE")
        }
        return try result.requireOK().idleOutcome ?? .timedOut
    }

    /// Ends a running IDLE (its `idle(maximum:)` returns `.stopped`); callable from any
    /// task. Does nothing when no IDLE is running or waiting for the server's `+`.
    public nonisolated func stopIdle() {
        channel.triggerUserOutboundEvent(IMAPClientHandler.EndIdle(reason: .stopped), promise: nil)
    }
}
