import Transport
import Logging
import NIOCore
import NIOSSL

/// The channel end of a submission: cuts the server's bytes into replies, feeds
/// `SubmissionStateMachine`, carries out its actions, and enforces the timeouts.
///
/// It completes `outcome` exactly once (the state machine decides when) and then closes
/// the connection. Command bytes are never logged, only their redacted spelling.
final class SMTPClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The message goes out in pieces, each completion restarting the timeout, so a slow
    /// upload is not mistaken for a dead server.
    static let writeChunkSize = 64 * 1024

    private var machine: SubmissionStateMachine
    private var parser: ReplyParser
    private let outcome: EventLoopPromise<SMTPDeliveryReport>
    /// Called on the event loop the moment the server accepted the message for some
    /// recipients (once per transaction), before anything else is sent and before `outcome`
    /// resumes anyone: the caller's chance to record it durably.
    private let onDelivered: (@Sendable ([String]) -> Void)?
    private let startTLS: TLSSetup?
    private let timeouts: SMTPTimeouts
    private let logger: Logger
    private var timer: Scheduled<Void>?
    private var started = false

    init(machine: SubmissionStateMachine, outcome: EventLoopPromise<SMTPDeliveryReport>, startTLS: TLSSetup?,
         timeouts: SMTPTimeouts, limits: SMTPReplyLimits, logger: Logger, onDelivered: (@Sendable ([String]) -> Void)? = nil) {
        self.machine = machine
        parser = ReplyParser(limits: limits)
        self.outcome = outcome
        self.onDelivered = onDelivered
        self.startTLS = startTLS
        self.timeouts = timeouts
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    /// Names the client after its local address and starts waiting for the greeting.
    private func start(context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        machine.clientName = Self.addressLiteral(context.channel.localAddress)
        restartTimer(context: context)
    }

    /// Removed with the outcome still open: fail it, but leave closing to whoever removed us.
    func handlerRemoved(context: ChannelHandlerContext) {
        perform(machine.fail(.connectionClosed).filter { $0 != .close }, context: context)
        stopTimer()
    }

    func channelInactive(context: ChannelHandlerContext) {
        perform(machine.fail(.connectionClosed), context: context)
        stopTimer()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("SMTP connection error: \(error)")
        perform(machine.fail(Self.smtpError(for: error)), context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        parser.append(unwrapInboundIn(data).readableBytesView)
        do {
            while let reply = try parser.next() {
                for line in reply.lines { logger.debug("S: \(reply.code) \(line)") }
                perform(machine.receive(reply), context: context)
            }
        } catch {
            perform(machine.fail(.protocolViolation(error.description)), context: context)
        }
        restartTimer(context: context)
    }

    private func perform(_ actions: [SubmissionStateMachine.Action], context: ChannelHandlerContext) {
        for action in actions {
            switch action {
            case .send(let commands):
                for command in commands { logger.debug("C: \(command.logLine)") }
                write(commands.flatMap(\.bytes), context: context)
            case .sendMessage(let bytes):
                logger.debug("C: <message, \(bytes.count) bytes>")
                write(bytes, context: context)
            case .startTLS: installTLS(context: context)
            case .delivered(let recipients): onDelivered?(recipients)
            case .succeed(let report): outcome.succeed(report)
            case .fail(let error): outcome.fail(error)
            case .warn(let text): logger.warning("\(text)")
            case .close: context.close(promise: nil)
            }
        }
    }

    /// Puts TLS in front of everything; bytes that came with the plaintext `220` are
    /// dropped (an injection attempt), the EHLO that follows waits for the handshake.
    private func installTLS(context: ChannelHandlerContext) {
        parser.reset()
        do {
            guard let startTLS else { throw SMTPError.tls(.setup("no TLS context for STARTTLS")) }
            let handler = try NIOSSLClientHandler(context: startTLS.context, serverHostname: startTLS.serverHostname)
            try context.pipeline.syncOperations.addHandler(handler, position: .first)
        } catch {
            perform(machine.fail(Self.smtpError(for: error)), context: context)
        }
    }

    private func write(_ bytes: [UInt8], context: ChannelHandlerContext) {
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + Self.writeChunkSize)
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenSuccess { [self] in restartTimer(context: context) }
            context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes[offset..<end])), promise: written)
            offset = end
        } while offset < bytes.count
        context.flush()
    }

    private func restartTimer(context: ChannelHandlerContext) {
        stopTimer()
        let limit: Duration
        switch machine.waitingFor {
        case .nothing: return
        case .greeting: limit = timeouts.connect
        case .reply: limit = timeouts.command
        case .dataCompletion: limit = timeouts.dataCompletion
        }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit.timeAmount) { [self] in
            logger.warning("SMTP server silent for \(limit); closing")
            perform(machine.fail(.timedOut(limit)), context: context)
        }
    }

    private func stopTimer() {
        timer?.cancel()
        timer = nil
    }

    static func smtpError(for error: any Error) -> SMTPError {
        switch error {
        case let error as SMTPError: error
        case NIOSSLError.uncleanShutdown: .connectionClosed
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError: .tls(TLSFailure(error))
        default: .connectionClosed
        }
    }

    /// The EHLO argument (RFC 5321 §4.1.3): `[192.0.2.7]` or `[IPv6:2001:db8::7]`.
    static func addressLiteral(_ address: SocketAddress?) -> String {
        guard let ip = address?.ipAddress else { return "[127.0.0.1]" }
        if case .v6? = address { return "[IPv6:\(ip)]" }
        return "[\(ip)]"
    }
}
