/// The progress of one IDLE command (RFC 2177), kept with it while it runs:
///
///     C: A0005 IDLE               -> waitingForContinuation
///     S: + idling                 -> idling: the IDLE timer starts, long silences are fine
///     S: * OK Still here          -> ignored (Dovecot's keepalive, every 2 minutes)
///     S: * 4 EXISTS               -> DONE is sent, the outcome is `.changed`
///     C: DONE
///     S: A0005 OK IDLE terminated -> the command completes with `.changed`
///
/// A reason to end that comes before the `+` (a stop, a queued command) is remembered
/// and DONE goes out as soon as the `+` arrives: DONE must not precede it.
struct IdleState: Sendable {
    enum Phase: Sendable, Equatable {
        case waitingForContinuation
        case idling
        case doneSent
    }

    /// Silence the server is allowed beyond `maximum` while idling: the socket read
    /// timeout is the refresh interval plus 2 minutes (docs/IMAP-QUIRKS.md §3.10).
    static let silenceSlack = Duration.seconds(120)

    /// How long to idle before DONE is sent with the outcome `.timedOut`.
    let maximum: Duration
    private(set) var phase = Phase.waitingForContinuation
    /// Why the IDLE ends; the first reason wins.
    private(set) var reason: IdleOutcome?

    init(maximum: Duration) {
        self.maximum = maximum
    }

    /// How long the server may stay silent now; nil outside the idling phase, when a
    /// reply is owed at the usual pace.
    var allowedSilence: Duration? {
        phase == .idling ? maximum + Self.silenceSlack : nil
    }

    /// What the command reports when it completes; a server that ends IDLE on its own
    /// noticed nothing, like a timeout: re-issue.
    var outcome: IdleOutcome { reason ?? .timedOut }

    /// Records why IDLE should end. True when DONE must be sent now.
    mutating func end(_ why: IdleOutcome) -> Bool {
        if reason == nil { reason = why }
        guard phase == .idling else { return false }
        phase = .doneSent
        return true
    }

    /// The server's `+`. True when DONE must be sent at once (an end came before it).
    mutating func continuationArrived() -> Bool {
        guard phase == .waitingForContinuation else { return false }
        phase = .idling
        guard let reason else { return false }
        return end(reason)
    }

    /// News about the selected mailbox, which ends the IDLE.
    static func isChange(_ response: UntaggedResponse) -> Bool {
        switch response {
        case .exists, .expunge, .fetch, .vanished: true
        default: false
        }
    }

    /// `* OK Still here`: a plain OK with no response code says nothing.
    static func isKeepalive(_ response: UntaggedResponse) -> Bool {
        if case .state(let state) = response { state.status == .ok && state.code == nil } else { false }
    }
}

/// Why `IMAPConnection.idle(maximum:)` returned. In every case DONE was sent and the
/// server's tagged OK read, so the connection takes commands again.
public enum IdleOutcome: Sendable, Equatable {
    /// EXISTS, EXPUNGE, FETCH or VANISHED arrived; the responses themselves are on `events`.
    case changed
    /// `maximum` elapsed (or the server ended IDLE itself) with no news: re-issue IDLE.
    case timedOut
    /// `stopIdle()` was called, or another command was issued on this connection.
    case stopped
}
