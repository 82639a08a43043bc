import Transport
import NIOCore
import Testing

@testable import SMTP

/// Refusals, garbage, hang-ups and silence at every step of a submission.
@Suite("SMTP submission failures", .timeLimit(.minutes(5)))
struct SubmissionFailureTests {
    /// The steps of a submission without PIPELINING, each with the transcript that leads
    /// the client to wait for its reply.
    enum Step: String, CaseIterable, Sendable {
        case greeting, ehlo = "EHLO", auth = "AUTH", mail = "MAIL FROM", data = "DATA", endOfData = "end of data"

        /// What is said before the client waits for this step's reply.
        var transcript: String {
            let segments = [
                "S: 220 mx.example.test ESMTP\nC: EHLO [127.0.0.1]",
                ScriptedSMTPServer.ehloReply(["SIZE 1000", "AUTH PLAIN LOGIN", "8BITMIME"]) + "\n"
                    + SubmissionTranscriptTests.plainAuth,
                "S: 235 2.7.0 ok\nC: MAIL FROM:<alice@example.test> SIZE=26",
                "S: 250 ok\nC: RCPT TO:<bob@example.test>\nS: 250 ok\nC: DATA",
                "S: 354 go\nC: Subject: hi\nC:\nC: Hello Bob\nC: .",
            ]
            return segments.prefix(Self.allCases.firstIndex(of: self) ?? 0).joined(separator: "\n")
        }
    }

    /// A client waiting for the reply to `step`.
    private func waiting(at step: Step, timeouts: SMTPTimeouts = SMTPTimeouts()) async throws
        -> (ScriptedSMTPServer, Task<SMTPDeliveryReport, any Error>) {
        let (server, client) = try await ScriptedSMTPServer.start(timeouts: timeouts)
        try await server.play(step.transcript)
        return (server, client)
    }

    static let refusals: [(Step, String)] = Step.allCases.flatMap { [($0, "421 4.3.2 Service shutting down"), ($0, "554 5.7.1 No")] }

    @Test("a 4xx or 5xx at any step is the matching error, and the client says QUIT", arguments: refusals)
    func refusal(step: Step, reply: String) async throws {
        let (server, client) = try await waiting(at: step)
        try await server.send(reply)
        #expect(try await server.clientLine() == "QUIT")
        let error = try #require(await client.smtpError)
        let code = Int(reply.prefix(3)) ?? 0
        switch (error, code / 100) {
        case (.transientFailure(let failure), 4), (.rejected(let failure), 5):
            #expect(failure.command == step.rawValue)
            #expect(failure.reply.description == reply)
            #expect(error.isTransient == (code < 500))
        case (.authenticationFailed(let answer, nil), 5) where step == .auth:
            #expect(answer.description == reply)
        default:
            Issue.record("\(reply) at \(step) gave \(error)")
        }
        try await server.send("221 bye")
        #expect(!server.channel.isActive)
    }

    static let garbage = ["garbage", "HTTP/1.1 200 OK", "25O letter O", "\u{0}\u{0}\u{0}", "999 bad code"]

    @Test("garbage at any step is a protocol violation and the connection closes at once",
          arguments: Step.allCases, garbage)
    func garbageReply(step: Step, line: String) async throws {
        let (server, client) = try await waiting(at: step)
        try await server.send(line)
        let error = try #require(await client.smtpError)
        guard case .protocolViolation = error else {
            Issue.record("\(line) at \(step) gave \(error)")
            return
        }
        #expect(!error.isTransient)
        #expect(try await server.unreadBytes().isEmpty, "nothing more is sent to a broken server")
        #expect(!server.channel.isActive)
    }

    @Test("a reply that makes no sense for its step is a protocol violation",
          arguments: [(Step.greeting, "250 hello"), (.ehlo, "354 go"), (.auth, "354 go"), (.data, "250 ok"),
                       (.endOfData, "334 what"), (.mail, "334 what")])
    func impossibleReply(step: Step, reply: String) async throws {
        let (server, client) = try await waiting(at: step)
        try await server.send(reply)
        guard case .protocolViolation? = await client.smtpError else {
            Issue.record("\(reply) at \(step) was accepted")
            return
        }
    }

    @Test("an over-long reply line is refused before the buffer grows")
    func overLongLine() async throws {
        let (server, client) = try await ScriptedSMTPServer.start(limits: SMTPReplyLimits(maxLineLength: 512, maxLines: 50))
        try await server.sendBytes(Array(("220 " + String(repeating: "A", count: 600)).utf8))
        #expect(await client.smtpError == .protocolViolation("reply line longer than 512 bytes"))
    }

    @Test("an endless multi-line reply is refused")
    func endlessReply() async throws {
        let (server, client) = try await ScriptedSMTPServer.start(limits: SMTPReplyLimits(maxLineLength: 512, maxLines: 50))
        try await server.send(Array(repeating: "220-more", count: 60).joined(separator: "\n"))
        #expect(await client.smtpError == .protocolViolation("reply of more than 50 lines"))
    }

    @Test("a server that hangs up at any step is a transient connection error", arguments: Step.allCases)
    func hangUp(step: Step) async throws {
        let (server, client) = try await waiting(at: step)
        try await server.close()
        let error = await client.smtpError
        #expect(error == .connectionClosed)
        #expect(error?.isTransient == true)
    }

    @Test("a server that closes in the middle of the message data fails the submission")
    func closeMidData() async throws {
        let big = SMTPSubmission(envelopeFrom: "alice@example.test", recipients: ["bob@example.test"],
                                 data: Array(String(repeating: "line of text\n", count: 20_000).utf8))
        let (server, client) = try await ScriptedSMTPServer.start(big)
        try await server.greetAndAuthenticate(capabilities: ["AUTH PLAIN", "PIPELINING"])
        try await server.play("""
            C: MAIL FROM:<alice@example.test>
            C: RCPT TO:<bob@example.test>
            S: 250 ok
            S: 250 ok
            C: DATA
            S: 354 go
            C: line of text
            """)
        try await server.close()
        #expect(await client.smtpError == .connectionClosed)
    }

    static let silences: [(Step, Duration)] = [(.greeting, .seconds(30)), (.ehlo, .seconds(120)), (.mail, .seconds(120)),
                                               (.data, .seconds(120)), (.endOfData, .seconds(300))]

    @Test("a silent server times out at every step with that step's limit", arguments: silences)
    func silence(step: Step, limit: Duration) async throws {
        let (server, client) = try await waiting(at: step)
        await server.advanceTime(by: limit.timeAmount - .seconds(1))
        #expect(server.channel.isActive, "still waiting just before the limit")
        await server.advanceTime(by: .seconds(2))
        #expect(await client.smtpError == .timedOut(limit))
        #expect(!server.channel.isActive)
    }

    @Test("once the message is accepted, a lost QUIT reply does not turn it into an error")
    func acceptedThenSilent() async throws {
        let (server, client) = try await waiting(at: .endOfData)
        try await server.send("250 2.0.0 queued")
        #expect(try await server.clientLine() == "QUIT")
        #expect(try await client.value.isDelivered)
        await server.advanceTime(by: .seconds(121))
        #expect(!server.channel.isActive, "the connection is closed after QUIT's timeout")
    }

    @Test("a submission that cannot be put on the wire is refused before connecting",
          arguments: [
            SMTPSubmission(envelopeFrom: "a@x.test", recipients: [], data: []),
            SMTPSubmission(envelopeFrom: "a@x.test", recipients: [""], data: []),
            SMTPSubmission(envelopeFrom: "a@x.test>\r\nRCPT TO:<evil@x.test", recipients: ["b@x.test"], data: []),
            SMTPSubmission(envelopeFrom: "a@x.test", recipients: ["b@x.test> NOTIFY=NEVER"], data: []),
            SMTPSubmission(envelopeFrom: "a@x.test", recipients: [String(repeating: "b", count: 300) + "@x.test"], data: []),
          ])
    func invalidSubmission(submission: SMTPSubmission) async throws {
        let result = await Result(awaiting: { () async throws(SMTPError) -> SMTPDeliveryReport in
            try await SMTPClient.send(submission, to: SMTPEndpoint(host: "127.0.0.1", port: 1, security: .tls),
                                      credential: .sample)
        })
        guard case .failure(.invalidSubmission) = result else {
            Issue.record("\(submission) gave \(result)")
            return
        }
    }
}

extension Result where Failure == SMTPError {
    init(awaiting body: () async throws(SMTPError) -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
