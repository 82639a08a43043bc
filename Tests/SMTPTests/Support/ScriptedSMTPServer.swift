import Logging
import TestSupport
import Transport

@testable import SMTP

/// The SMTP server of a client test (see `ScriptedPeer`).
typealias ScriptedSMTPServer = ScriptedPeer

extension ScriptedPeer {
    /// A connected server and the client's submission running against it.
    static func start(
        _ submission: SMTPSubmission = .sample, credential: SMTPCredential = .sample,
        protection: SubmissionStateMachine.Protection = .none, startTLS: TLSSetup? = nil,
        timeouts: SMTPTimeouts = SMTPTimeouts(), limits: SMTPReplyLimits = SMTPReplyLimits(),
        logger: Logger = .quiet, onDelivered: (@Sendable ([String]) -> Void)? = nil
    ) async throws -> (ScriptedPeer, Task<SMTPDeliveryReport, any Error>) {
        let server = ScriptedPeer()
        let channel = server.channel
        try await server.activate(port: 587)
        let client = Task {
            try await SMTPClient.run(
                submission, credential: credential, on: channel, protection: protection, startTLS: startTLS,
                timeouts: timeouts, limits: limits, logger: logger, onDelivered: onDelivered)
        }
        try await server.waitForClient(handler: SMTPClientHandler.self)
        return (server, client)
    }

    /// The opening every transcript shares: greeting, EHLO with `capabilities`, AUTH PLAIN.
    func greetAndAuthenticate(capabilities: [String] = ["PIPELINING", "SIZE 10240000", "AUTH PLAIN LOGIN", "8BITMIME"])
        async throws {
        try await play("""
            S: 220 mx.example.test ESMTP
            C: EHLO [127.0.0.1]
            \(Self.ehloReply(capabilities))
            C: AUTH PLAIN \(SASLResponse.plain(user: "alice", password: "pw-secret"))
            S: 235 2.7.0 Authentication successful
            """)
    }

    /// `S:` lines of a 250 EHLO reply.
    static func ehloReply(_ capabilities: [String]) -> String {
        let lines = ["mx.example.test"] + capabilities
        return lines.enumerated().map { index, line in
            "S: 250\(index == lines.count - 1 ? " " : "-")\(line)"
        }.joined(separator: "\n")
    }
}

extension SMTPSubmission {
    static let sample = SMTPSubmission(
        envelopeFrom: "alice@example.test", recipients: ["bob@example.test"],
        data: Array("Subject: hi\r\n\r\nHello Bob\r\n".utf8))
}

extension SMTPCredential {
    static let sample = SMTPCredential.password(user: "alice", password: "pw-secret")
}

extension Task where Success == SMTPDeliveryReport, Failure == any Error {
    /// The submission's error as an `SMTPError`, nil when it succeeded.
    var smtpError: SMTPError? {
        get async {
            if case .failure(let error) = await result { return error as? SMTPError }
            return nil
        }
    }

    var report: SMTPDeliveryReport? {
        get async { try? await value }
    }
}

extension Logger {
    /// For tests that do not look at the log: keeps warnings about timeouts off the output.
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
}
