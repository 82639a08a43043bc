import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Transport

/// Submits messages over SMTP (RFC 5321, 6409) with SwiftNIO and NIOSSL: one connection
/// per submission, implicit TLS or STARTTLS, AUTH, then the mail transaction.
///
///     let report = try await SMTPClient.send(
///         SMTPSubmission(envelopeFrom: "alice@example.org", recipients: ["bob@example.org"], data: bytes),
///         to: SMTPEndpoint(host: "smtp.example.org", port: 465, security: .tls),
///         credential: .password(user: "alice", password: secret))
///     report.isDelivered          // the server queued it
///     report.rejectedRecipients   // each with the server's reply
///
/// Every error thrown is an `SMTPError`; a silent or vanished server fails within the
/// `SMTPTimeouts`, it never hangs. Cancelling the task closes the connection.
/// `onDelivered` runs on the event loop as soon as the server accepts the message for some
/// recipients, with their addresses (once per transaction: a server that takes fewer
/// recipients a transaction than the message has gets several), before the next command:
/// keep it to a few microseconds, e.g. one append to a file.
public enum SMTPClient {
    public static func send(
        _ submission: SMTPSubmission, to endpoint: SMTPEndpoint, credential: SMTPCredential,
        timeouts: SMTPTimeouts = SMTPTimeouts(), limits: SMTPReplyLimits = SMTPReplyLimits(),
        logger: Logger = Logger(label: "mailfs.smtp"),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        onDelivered: (@Sendable ([String]) -> Void)? = nil
    ) async throws(SMTPError) -> SMTPDeliveryReport {
        try submission.validate()
        let setup: TLSSetup
        do {
            setup = try TLSSetup(options: endpoint.tls, host: endpoint.host)
        } catch {
            throw .tls(.setup("\(error)"))
        }
        let protection: SubmissionStateMachine.Protection = endpoint.security == .tls ? .implicitTLS : .startTLS
        let machine = SubmissionStateMachine(submission: submission, credential: credential, protection: protection)
        let loop = eventLoopGroup.next()
        let outcome = loop.makePromise(of: SMTPDeliveryReport.self)
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(timeouts.connect.timeAmount)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if protection == .implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: setup.context, serverHostname: setup.serverHostname))
                    }
                    try channel.pipeline.syncOperations.addHandler(SMTPClientHandler(
                        machine: machine, outcome: outcome, startTLS: setup, timeouts: timeouts, limits: limits,
                        logger: logger, onDelivered: onDelivered))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: endpoint.host, port: endpoint.port).get()
        } catch {
            outcome.fail(error)
            throw connectError(error, timeouts: timeouts, host: endpoint.host, port: endpoint.port)
        }
        return try await result(of: outcome.futureResult, on: channel)
    }

    /// Runs a submission over a channel that is already connected (tests: an
    /// `NIOAsyncTestingChannel` playing the server).
    static func run(
        _ submission: SMTPSubmission, credential: SMTPCredential, on channel: any Channel,
        protection: SubmissionStateMachine.Protection = .none, startTLS: TLSSetup? = nil,
        timeouts: SMTPTimeouts = SMTPTimeouts(), limits: SMTPReplyLimits = SMTPReplyLimits(),
        logger: Logger = Logger(label: "mailfs.smtp"), onDelivered: (@Sendable ([String]) -> Void)? = nil
    ) async throws(SMTPError) -> SMTPDeliveryReport {
        try submission.validate()
        let machine = SubmissionStateMachine(submission: submission, credential: credential, protection: protection)
        let outcome = channel.eventLoop.makePromise(of: SMTPDeliveryReport.self)
        do {
            try await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.addHandler(SMTPClientHandler(
                    machine: machine, outcome: outcome, startTLS: startTLS, timeouts: timeouts, limits: limits,
                    logger: logger, onDelivered: onDelivered))
            }.get()
        } catch {
            outcome.fail(error)
            throw SMTPClientHandler.smtpError(for: error)
        }
        return try await result(of: outcome.futureResult, on: channel)
    }

    private static func result(
        of outcome: EventLoopFuture<SMTPDeliveryReport>, on channel: any Channel
    ) async throws(SMTPError) -> SMTPDeliveryReport {
        do {
            return try await withTaskCancellationHandler {
                try await outcome.get()
            } onCancel: {
                channel.close(promise: nil)
            }
        } catch {
            throw SMTPClientHandler.smtpError(for: error)
        }
    }

    private static func connectError(_ error: any Error, timeouts: SMTPTimeouts, host: String, port: Int) -> SMTPError {
        if let error = error as? ChannelError, case .connectTimeout = error { return .timedOut(timeouts.connect) }
        return .connectFailed(ConnectFailure.describe(error, host: host, port: port))
    }
}
