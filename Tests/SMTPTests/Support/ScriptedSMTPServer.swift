import Transport
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import SMTP

/// An SMTP server played by the test over an `NIOAsyncTestingChannel`: it sends what the
/// test says, reads what the client sends, and controls time.
///
///     try await server.play("""
///         S: 220 mx.example.test ESMTP
///         C: EHLO [127.0.0.1]
///         """)
actor ScriptedSMTPServer {
    let channel = NIOAsyncTestingChannel()
    private var received: [UInt8] = []

    /// A connected server and the client's submission running against it.
    static func start(
        _ submission: SMTPSubmission = .sample, credential: SMTPCredential = .sample,
        protection: SubmissionStateMachine.Protection = .none, startTLS: TLSSetup? = nil,
        timeouts: SMTPTimeouts = SMTPTimeouts(), limits: SMTPReplyLimits = SMTPReplyLimits(),
        logger: Logger = .quiet
    ) async throws -> (ScriptedSMTPServer, Task<SMTPDeliveryReport, any Error>) {
        let server = ScriptedSMTPServer()
        let channel = server.channel
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 587))
        let client = Task {
            try await SMTPClient.run(
                submission, credential: credential, on: channel, protection: protection, startTLS: startTLS,
                timeouts: timeouts, limits: limits, logger: logger)
        }
        try await server.waitForClient()
        return (server, client)
    }

    /// Waits until the client's handler is in the pipeline, so nothing sent is lost.
    private func waitForClient() async throws {
        for _ in 0..<1000 {
            if (try? await channel.pipeline.containsHandler(type: SMTPClientHandler.self).get()) != nil { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw ScriptError.clientNeverStarted
    }

    /// Sends lines to the client, CRLF after each.
    func send(_ lines: String) async throws {
        let text = lines.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\r\n" }.joined()
        try await sendBytes(Array(text.utf8))
    }

    func sendBytes(_ bytes: [UInt8]) async throws {
        try await channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    /// The next line the client sent, without CRLF; waits up to five seconds.
    func clientLine() async throws -> String {
        for _ in 0..<2500 {
            if let end = received.firstIndex(of: 0x0A) {
                let line = received[..<end].last == 0x0D ? received[..<(end - 1)] : received[..<end]
                received.removeSubrange(...end)
                return String(decoding: line, as: UTF8.self)
            }
            if !(try await readOutbound()) { try await Task.sleep(for: .milliseconds(2)) }
        }
        throw ScriptError.clientSilent(pending: String(decoding: received, as: UTF8.self))
    }

    /// Moves what the client wrote into `received`; false when it wrote nothing new.
    private func readOutbound() async throws -> Bool {
        guard let buffer = try await channel.readOutbound(as: ByteBuffer.self) else { return false }
        received += buffer.readableBytesView
        return true
    }

    /// Everything the client sent and the test has not read yet.
    func unreadBytes() async throws -> [UInt8] {
        await channel.testingEventLoop.run()
        while try await readOutbound() {}
        defer { received = [] }
        return received
    }

    /// Plays a transcript: each `C:` line must be what the client sends next, each `S:`
    /// line is sent to it; other lines are comments.
    func play(_ transcript: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for line in transcript.split(separator: "\n") {
            if line.hasPrefix("C: ") || line == "C:" {
                let got = try await clientLine()
                #expect(got == String(line.dropFirst(3)), sourceLocation: sourceLocation)
            } else if line.hasPrefix("S: ") {
                try await send(String(line.dropFirst(3)))
            }
        }
    }

    /// The opening every transcript shares: greeting, EHLO with `capabilities`, AUTH PLAIN.
    func greetAndAuthenticate(capabilities: [String] = ["PIPELINING", "SIZE 10240000", "AUTH PLAIN LOGIN", "8BITMIME"],
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await play("""
            S: 220 mx.example.test ESMTP
            C: EHLO [127.0.0.1]
            \(Self.ehloReply(capabilities))
            C: AUTH PLAIN \(SASLResponse.plain(user: "alice", password: "pw-secret"))
            S: 235 2.7.0 Authentication successful
            """, sourceLocation: sourceLocation)
    }

    /// `S:` lines of a 250 EHLO reply.
    static func ehloReply(_ capabilities: [String]) -> String {
        let lines = ["mx.example.test"] + capabilities
        return lines.enumerated().map { index, line in
            "S: 250\(index == lines.count - 1 ? " " : "-")\(line)"
        }.joined(separator: "\n")
    }

    func advanceTime(by amount: TimeAmount) async {
        await channel.testingEventLoop.advanceTime(by: amount)
    }

    func close() async throws {
        try await channel.close()
    }

    enum ScriptError: Error {
        case clientNeverStarted
        case clientSilent(pending: String)
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
