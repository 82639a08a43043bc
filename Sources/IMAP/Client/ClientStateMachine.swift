import Transport
import NIOCore

/// The session as a value: the greeting, one command on the wire at a time, a queue
/// behind it, and where every response goes. It performs no I/O; the handler carries
/// out the returned actions in order.
///
///     S: * OK Dovecot ready.             -> greeted
///     C: A0001 LOGIN "alice" {5}         -> send (first segment)
///     S: + OK                            -> send (literal bytes and the rest of the line)
///     S: * CAPABILITY IMAP4rev1 MOVE     -> claimed by LOGIN
///     S: * 3 EXISTS                      -> emit (not LOGIN's business)
///     S: A0001 OK Logged in              -> succeed, then send the next queued command
struct ClientStateMachine {
    enum Action {
        case send([UInt8])
        case emit(IMAPEvent)
        case greeted(EventLoopPromise<Greeting>, Greeting)
        case failGreeting(EventLoopPromise<Greeting>, IMAPError)
        /// Must run before anything else is read: the STARTTLS reply was the last plaintext.
        case upgradeToTLS(TLSSetup)
        case succeed(EventLoopPromise<CommandResult>, CommandResult)
        case fail(EventLoopPromise<CommandResult>, IMAPError)
        case close
        /// A command went out: its tag and redacted spelling, for the debug log.
        case sent(tag: String, logLine: String)
        /// The IDLE tagged `tag` is running: call `idleTimeElapsed(tag:)` after `after`.
        case startIdleTimer(tag: String, after: Duration)
        /// Something odd but survivable, for the log.
        case warn(String)
    }

    private enum Phase {
        case awaitingGreeting(EventLoopPromise<Greeting>)
        case ready
        // INVARIANT: once closed, no command is current or queued; new ones fail at once.
        case closed(IMAPError)
    }

    private struct InFlight {
        var tag: String
        var command: PendingCommand
        var nextSegment = 1
        var untagged: [UntaggedResponse] = []
        var lastChallenge: String?
    }

    /// Dovecot's note before its real greeting when its auth process is slow.
    static let dovecotWaitingPrefix = "Waiting for authentication process"

    private var phase: Phase
    private var current: InFlight?
    private var queue = CircularBuffer<PendingCommand>()
    private var tagCounter = 0

    init(greeting: EventLoopPromise<Greeting>) {
        phase = .awaitingGreeting(greeting)
    }

    var isAwaitingGreeting: Bool {
        if case .awaitingGreeting = phase { return true }
        return false
    }

    /// Whether the server owes a reply (the greeting or a command's completion), which is
    /// when its silence counts towards a timeout.
    var isAwaitingServer: Bool { isAwaitingGreeting || current != nil }

    /// A longer silence than the response timeout that the server is allowed now: while
    /// an IDLE runs, news may take as long as the IDLE lasts.
    var allowedSilence: Duration? { current?.command.idle?.allowedSilence }

    /// The tag of the command on the wire, if any.
    var currentTag: String? { current?.tag }

    /// Where the command on the wire streams its body literal, if it does.
    var literalSink: LiteralSink? { current?.command.literalSink }

    mutating func submit(_ command: PendingCommand) -> [Action] {
        switch phase {
        case .closed(let error):
            return [.fail(command.promise, error)]
        case .awaitingGreeting:
            queue.append(command)
            return []
        case .ready:
            let busy = current != nil
            queue.append(command)
            // A running IDLE would hold the new command back until it ends by itself.
            return busy ? endIdle(.stopped) : startNextCommand()
        }
    }

    /// Ends the running IDLE with DONE, at once or as soon as the server's `+` arrives.
    /// Nothing happens when the current command is not an IDLE.
    mutating func endIdle(_ reason: IdleOutcome) -> [Action] {
        guard current?.command.idle?.end(reason) == true else { return [] }
        return [.send(Self.done)]
    }

    /// The IDLE timer of the command tagged `tag` fired; it may have completed since.
    mutating func idleTimeElapsed(tag: String) -> [Action] {
        guard current?.tag == tag else { return [] }
        return endIdle(.timedOut)
    }

    mutating func receive(_ response: Response) -> [Action] {
        switch phase {
        case .closed:
            return []
        case .awaitingGreeting(let promise):
            return receiveGreeting(response, promise: promise)
        case .ready:
            switch response {
            case .continuation(let text): return continuationRequested(text)
            case .tagged(let tagged): return completed(tagged)
            case .untagged(let untagged): return received(untagged)
            }
        }
    }

    /// A response the parser could not read. If it was the current command's tagged reply
    /// the command fails (rather than waiting for a timeout); otherwise it is skipped.
    mutating func receiveUnparseable(_ unit: [UInt8], error: IMAPParseError) -> [Action] {
        guard let inFlight = current, unit.starts(with: Array("\(inFlight.tag) ".utf8)) else {
            return [.warn("skipped an unparseable response: \(error)")]
        }
        current = nil
        return [.fail(inFlight.command.promise, .protocolViolation("unparseable reply: \(error)"))]
            + startNextCommand()
    }

    /// Ends the session: the greeting and every command fail with `error`.
    mutating func fail(_ error: IMAPError) -> [Action] {
        var actions: [Action] = []
        switch phase {
        case .closed: return []
        case .awaitingGreeting(let promise): actions.append(.failGreeting(promise, error))
        case .ready: break
        }
        phase = .closed(error)
        if let inFlight = current {
            actions.append(.fail(inFlight.command.promise, error))
            current = nil
        }
        while let waiting = queue.popFirst() {
            actions.append(.fail(waiting.promise, error))
        }
        return actions + [.close]
    }

    private mutating func receiveGreeting(
        _ response: Response, promise: EventLoopPromise<Greeting>
    ) -> [Action] {
        let greeting: Greeting
        switch response {
        case .untagged(.state(let state)) where state.status == .ok:
            if state.text.hasPrefix(Self.dovecotWaitingPrefix) {
                return [.warn("server is still starting: \(state.text)")]
            }
            greeting = Greeting(preauthenticated: false, state: state)
        case .untagged(.preauth(let state)):
            greeting = Greeting(preauthenticated: true, state: state)
        case .untagged(.bye(let state)):
            return fail(.serverClosed(state.text))
        default:
            return fail(.protocolViolation("unexpected greeting"))
        }
        phase = .ready
        let alert: [Action] = greeting.state.code == .alert ? [.emit(.alert(greeting.state.text))] : []
        return alert + [.greeted(promise, greeting)] + startNextCommand()
    }

    private mutating func continuationRequested(_ text: String) -> [Action] {
        guard let inFlight = current else {
            return [.warn("continuation request with no command outstanding")]
        }
        if let idle = inFlight.command.idle {
            guard idle.phase == .waitingForContinuation else {
                return [.warn("unexpected continuation request during IDLE")]
            }
            let endsAtOnce = current?.command.idle?.continuationArrived() == true
            return endsAtOnce ? [.send(Self.done)] : [.startIdleTimer(tag: inFlight.tag, after: idle.maximum)]
        }
        let segments = inFlight.command.segments
        if inFlight.nextSegment < segments.count {
            current?.nextSegment += 1
            return [.send(segments[inFlight.nextSegment])]
        }
        guard inFlight.command.answersChallengesWithEmptyLine else {
            return [.warn("unexpected continuation request for \(inFlight.command.name)")]
        }
        current?.lastChallenge = text
        return [.send(Array("\r\n".utf8))]
    }

    private mutating func completed(_ tagged: TaggedResponse) -> [Action] {
        guard let inFlight = current, inFlight.tag == tagged.tag else {
            return [.warn("dropped a reply with unknown tag \(tagged.tag)")]
        }
        current = nil
        var actions: [Action] = []
        if tagged.state.code == .alert { actions.append(.emit(.alert(tagged.state.text))) }
        if tagged.state.status == .ok, let upgrade = inFlight.command.tlsUpgrade {
            actions.append(.upgradeToTLS(upgrade))
        }
        let result = CommandResult(
            name: inFlight.command.name, state: tagged.state, untagged: inFlight.untagged,
            lastChallenge: inFlight.lastChallenge, idleOutcome: inFlight.command.idle?.outcome)
        actions.append(.succeed(inFlight.command.promise, result))
        return actions + startNextCommand()
    }

    private mutating func received(_ untagged: UntaggedResponse) -> [Action] {
        if current?.command.idle != nil {
            if IdleState.isKeepalive(untagged) { return [] }
            if IdleState.isChange(untagged) { return [.emit(.untagged(untagged))] + endIdle(.changed) }
        }
        if current?.command.claims(untagged) == true {
            // Mutated in place: a copy would make a 10,000-message FETCH quadratic.
            current?.untagged.append(untagged)
            return []
        }
        switch untagged {
        case .bye(let state):
            return [.emit(.untagged(untagged))] + fail(.serverClosed(state.text))
        case .state(let state) where state.code == .alert:
            return [.emit(.alert(state.text))]
        default:
            return [.emit(.untagged(untagged))]
        }
    }

    /// Ends an IDLE (RFC 2177); it has no tag.
    private static let done = Array("DONE\r\n".utf8)

    private mutating func startNextCommand() -> [Action] {
        guard current == nil, case .ready = phase, let next = queue.popFirst() else { return [] }
        tagCounter += 1
        let tag = "A" + String(repeating: "0", count: max(0, 4 - String(tagCounter).count)) + String(tagCounter)
        current = InFlight(tag: tag, command: next)
        let first = next.segments.first ?? Array("\r\n".utf8)
        return [.sent(tag: tag, logLine: next.logLine), .send(Array("\(tag) ".utf8) + first)]
    }
}
