import Transport
import Foundation
import Logging
import NIOCore
import NIOSSL

/// The channel end of an IMAP session: frames and parses the bytes from the server,
/// feeds `ClientStateMachine`, carries out its actions, and enforces the timeouts.
///
/// Outbound it takes `PendingCommand`s (written by `IMAPConnection`) and emits bytes.
/// Command bytes are never logged (they may hold a password); only their redacted spelling.
final class IMAPClientHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = PendingCommand
    typealias OutboundOut = ByteBuffer

    /// Large writes (APPEND) go out in pieces, each completion restarting the timeout,
    /// so a slow upload is not mistaken for a dead server.
    static let writeChunkSize = 64 * 1024

    private var machine: ClientStateMachine
    private let limits: ParserLimits
    private var framer: ResponseFramer
    private var parser: ResponseParser
    private let events: AsyncStream<IMAPEvent>.Continuation
    private let timeouts: IMAPTimeouts
    private let logger: Logger
    private let alerts: AlertHandler
    private var timer: Scheduled<Void>?
    private var idleTimer: Scheduled<Void>?
    /// A streamed literal was handed out and the response carrying it is not read yet.
    private var streamedLiteralPending = false

    /// The outbound user event that ends a running IDLE (`IMAPConnection.stopIdle()`).
    struct EndIdle: Sendable {
        var reason: IdleOutcome
    }

    init(
        greeting: EventLoopPromise<Greeting>, events: AsyncStream<IMAPEvent>.Continuation,
        timeouts: IMAPTimeouts, limits: ParserLimits, logger: Logger, alerts: @escaping AlertHandler
    ) {
        machine = ClientStateMachine(greeting: greeting)
        self.limits = limits
        framer = ResponseFramer(limits: limits)
        parser = ResponseParser(limits: limits)
        self.events = events
        self.timeouts = timeouts
        self.logger = logger
        self.alerts = alerts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { restartTimer(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        perform(machine.fail(.connectionClosed), context: context)
        stopTimers()
        events.finish()
    }

    func channelActive(context: ChannelHandlerContext) {
        restartTimer(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        perform(machine.fail(.connectionClosed), context: context)
        stopTimers()
        events.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("IMAP connection error: \(error)")
        perform(machine.fail(Self.imapError(for: error)), context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        framer.append(bytes.readableBytesView)
        readResponses(context: context)
        restartTimer(context: context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        promise?.succeed()
        perform(machine.submit(unwrapOutboundIn(data)), context: context)
        restartTimer(context: context)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let end = event as? EndIdle else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        promise?.succeed()
        perform(machine.endIdle(end.reason), context: context)
    }

    /// Parses every complete response buffered. Stops after a STARTTLS upgrade: bytes
    /// that came with the plaintext reply are an injection attempt and are dropped.
    private func readResponses(context: ChannelHandlerContext) {
        while true {
            let unit: [UInt8]
            let sink = machine.literalSink
            framer.streamedLiteralMarker = sink?.marker
            do {
                switch try framer.next() {
                case .needMoreBytes: return
                case .literalBegins(let length):
                    streamedLiteralPending = true
                    sink?.receive(.begins(length: length))
                    continue
                case .literalBytes(let bytes):
                    sink?.receive(.bytes(bytes))
                    continue
                case .response(let next):
                    unit = next
                }
            } catch {
                perform(machine.fail(.protocolViolation(error.description)), context: context)
                return
            }
            logger.trace("S: \(Self.summary(of: unit))")
            let actions: [ClientStateMachine.Action]
            do {
                let response = try parser.parse(unit)
                if streamedLiteralPending { endStreamedLiteral(response, sink: sink) }
                actions = machine.receive(response)
            } catch {
                streamedLiteralPending = false
                actions = machine.receiveUnparseable(unit, error: error)
            }
            if perform(actions, context: context) == .upgradedToTLS {
                framer = ResponseFramer(limits: limits)
                return
            }
        }
    }

    /// Tells the sink which message the streamed literal belonged to, once its response
    /// is read (an unparseable one tells nothing: the fetch then finds no `ended`).
    private func endStreamedLiteral(_ response: Response, sink: LiteralSink?) {
        streamedLiteralPending = false
        guard case .untagged(.fetch(_, let attributes)) = response else { return }
        sink?.receive(.ended(uid: attributes.uid))
    }

    private enum Outcome { case done, upgradedToTLS }

    @discardableResult
    private func perform(_ actions: [ClientStateMachine.Action], context: ChannelHandlerContext) -> Outcome {
        var outcome = Outcome.done
        for action in actions {
            switch action {
            case .send(let bytes): send(bytes, context: context)
            case .emit(let event):
                // Whoever reads `events` (or nobody: a pooled connection's are unread), the
                // user must see an alert (RFC 3501 §7.1).
                if case .alert(let text) = event { alerts(text) }
                events.yield(event)
            case .greeted(let promise, let greeting): promise.succeed(greeting)
            case .failGreeting(let promise, let error): promise.fail(error)
            case .succeed(let promise, let result): promise.succeed(result)
            case .fail(let promise, let error): promise.fail(error)
            case .close: context.close(promise: nil)
            case .sent(let tag, let line): logger.debug("C: \(tag) \(line)")
            case .startIdleTimer(let tag, let delay): startIdleTimer(tag: tag, after: delay, context: context)
            case .warn(let text): logger.warning("\(text)")
            case .upgradeToTLS(let upgrade):
                if installTLS(upgrade, context: context) { outcome = .upgradedToTLS }
            }
        }
        return outcome
    }

    /// Puts TLS in front of everything; on failure the session ends.
    private func installTLS(_ upgrade: TLSSetup, context: ChannelHandlerContext) -> Bool {
        do {
            let tls = try NIOSSLClientHandler(context: upgrade.context, serverHostname: upgrade.serverHostname)
            try context.pipeline.syncOperations.addHandler(tls, position: .first)
            return true
        } catch {
            perform(machine.fail(.tls(TLSFailure(error))), context: context)
            return false
        }
    }

    private func send(_ bytes: [UInt8], context: ChannelHandlerContext) {
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + Self.writeChunkSize)
            let buffer = context.channel.allocator.buffer(bytes: bytes[offset..<end])
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenSuccess { [self] in
                restartTimer(context: context)
            }
            context.write(wrapOutboundOut(buffer), promise: written)
            offset = end
        } while offset < bytes.count
        context.flush()
    }

    private func restartTimer(context: ChannelHandlerContext) {
        stopTimer()
        guard machine.isAwaitingServer else { return }
        let limit = machine.isAwaitingGreeting
            ? timeouts.connect : max(timeouts.response, machine.allowedSilence ?? .zero)
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit.timeAmount) { [self] in
            logger.warning("IMAP server silent for \(limit); closing")
            perform(machine.fail(.timedOut(limit)), context: context)
        }
    }

    private func stopTimer() {
        timer?.cancel()
        timer = nil
    }

    private func stopTimers() {
        stopTimer()
        idleTimer?.cancel()
        idleTimer = nil
    }

    /// One IDLE runs at a time: a new one replaces the timer of the last.
    private func startIdleTimer(tag: String, after delay: Duration, context: ChannelHandlerContext) {
        idleTimer?.cancel()
        idleTimer = context.eventLoop.assumeIsolated().scheduleTask(in: delay.timeAmount) { [self] in
            perform(machine.idleTimeElapsed(tag: tag), context: context)
        }
    }

    static func imapError(for error: Error) -> IMAPError {
        switch error {
        case let error as IMAPError: error
        case NIOSSLError.uncleanShutdown: .connectionClosed
        case let error as IOError where error.errnoCode == ECONNRESET: .connectionReset
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError: .tls(TLSFailure(error))
        default: .connectionClosed
        }
    }

    /// The first line of a response, cut short, for the trace log.
    static func summary(of unit: [UInt8]) -> String {
        let line = unit.prefix { $0 != 0x0D && $0 != 0x0A }.prefix(200)
        return String(decoding: line, as: UTF8.self)
    }
}
