import Transport
import Logging
import NIOCore
import NIOPosix
import NIOSSL

extension IMAPConnection {
    /// How bytes are protected on the wire. `.plain` exists only for tests against a
    /// local scripted server; the public API offers `IMAPSecurity`.
    enum Transport: Sendable {
        case plain
        case tls(TLSSetup)
        case starttls(TLSSetup)
    }

    /// Connects, reads the greeting, upgrades with STARTTLS when asked, and learns the
    /// capabilities. The session is then ready for `login` or an `authenticate…` call
    /// (or already authenticated after a PREAUTH greeting over TLS).
    public static func connect(
        host: String, port: Int, security: IMAPSecurity, tls: TLSOptions = TLSOptions(),
        timeouts: IMAPTimeouts = IMAPTimeouts(), limits: ParserLimits = ParserLimits(),
        logger: Logger = Logger(label: "mailfs.imap"), alerts: @escaping AlertHandler = { _ in },
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(IMAPError) -> IMAPConnection {
        let upgrade: TLSSetup
        do {
            upgrade = try TLSSetup(options: tls, host: host)
        } catch {
            throw .tls(.setup("\(error)"))
        }
        let transport: Transport = security == .tls ? .tls(upgrade) : .starttls(upgrade)
        return try await connect(
            host: host, port: port, transport: transport, timeouts: timeouts, limits: limits,
            logger: logger, alerts: alerts, eventLoopGroup: eventLoopGroup)
    }

    static func connect(
        host: String, port: Int, transport: Transport, timeouts: IMAPTimeouts,
        limits: ParserLimits, logger: Logger, alerts: @escaping AlertHandler = { _ in },
        eventLoopGroup: any EventLoopGroup
    ) async throws(IMAPError) -> IMAPConnection {
        let loop = eventLoopGroup.next()
        let greeting = loop.makePromise(of: Greeting.self)
        let (events, continuation) = AsyncStream.makeStream(
            of: IMAPEvent.self, bufferingPolicy: .bufferingNewest(eventBufferLimit))
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(timeouts.connect.timeAmount)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if case .tls(let upgrade) = transport {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: upgrade.context, serverHostname: upgrade.serverHostname))
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        IMAPClientHandler(
                            greeting: greeting, events: continuation, timeouts: timeouts, limits: limits,
                            logger: logger, alerts: alerts))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            greeting.fail(error)
            continuation.finish()
            throw connectError(error, timeouts: timeouts, host: host, port: port)
        }
        let connection = IMAPConnection(channel: channel, events: events, logger: logger)
        try await connection.open(greeting: greeting.futureResult, transport: transport)
        return connection
    }

    /// Runs a session over a channel that is already set up (tests: an
    /// `NIOAsyncTestingChannel` playing the server). Adds the IMAP handler, then opens.
    static func start(
        on channel: any Channel, transport: Transport = .plain, timeouts: IMAPTimeouts = IMAPTimeouts(),
        limits: ParserLimits = ParserLimits(), logger: Logger = Logger(label: "mailfs.imap"),
        alerts: @escaping AlertHandler = { _ in }
    ) async throws(IMAPError) -> IMAPConnection {
        let greeting = channel.eventLoop.makePromise(of: Greeting.self)
        let (events, continuation) = AsyncStream.makeStream(
            of: IMAPEvent.self, bufferingPolicy: .bufferingNewest(eventBufferLimit))
        do {
            try await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.addHandler(
                    IMAPClientHandler(
                        greeting: greeting, events: continuation, timeouts: timeouts, limits: limits,
                        logger: logger, alerts: alerts))
            }.get()
        } catch {
            greeting.fail(error)
            continuation.finish()
            throw IMAPClientHandler.imapError(for: error)
        }
        let connection = IMAPConnection(channel: channel, events: events, logger: logger)
        try await connection.open(greeting: greeting.futureResult, transport: transport)
        return connection
    }

    /// Greeting, STARTTLS, capabilities. Any failure closes the connection.
    private func open(greeting: EventLoopFuture<Greeting>, transport: Transport) async throws(IMAPError) {
        do {
            try await handshake(greeting: greeting, transport: transport)
        } catch {
            await close()
            throw error
        }
    }

    private func handshake(greeting future: EventLoopFuture<Greeting>, transport: Transport) async throws(IMAPError) {
        let greeting: Greeting
        do {
            greeting = try await future.get()
        } catch {
            throw IMAPClientHandler.imapError(for: error)
        }
        isAuthenticated = greeting.preauthenticated
        if case .capability(let names) = greeting.state.code { capabilities = Set(names) }
        if case .starttls(let upgrade) = transport {
            try await startTLS(upgrade, preauthenticated: greeting.preauthenticated)
        }
        if capabilities.isEmpty { try await capability() }
    }

    /// STARTTLS (RFC 3501 §6.2.1), or a refusal when it is not offered. A PREAUTH
    /// greeting over plaintext is refused too: that session can never be upgraded.
    private func startTLS(_ upgrade: TLSSetup, preauthenticated: Bool) async throws(IMAPError) {
        guard !preauthenticated else { throw .startTLSNotOffered }
        if capabilities.isEmpty { try await capability() }
        guard capabilities.contains("STARTTLS") else { throw .startTLSNotOffered }
        _ = try await run("STARTTLS", configure: { $0.tlsUpgrade = upgrade }) { $0.raw("STARTTLS") }
            .requireOK()
        // Capabilities learnt in plaintext may have been forged: ask again over TLS.
        capabilities = []
        try await capability()
    }

    private static func connectError(_ error: any Error, timeouts: IMAPTimeouts, host: String, port: Int) -> IMAPError {
        if let error = error as? ChannelError, case .connectTimeout = error { return .timedOut(timeouts.connect) }
        return .connectFailed(ConnectFailure.describe(error, host: host, port: port))
    }
}
