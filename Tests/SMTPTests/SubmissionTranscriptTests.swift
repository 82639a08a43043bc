import Testing

@testable import SMTP

/// Whole submissions against a scripted server: what the client sends, reply by reply.
@Suite("SMTP submission transcripts", .timeLimit(.minutes(5)))
struct SubmissionTranscriptTests {
    static let plainAuth = "C: AUTH PLAIN \(SASLResponse.plain(user: "alice", password: "pw-secret"))"

    @Test("with PIPELINING, MAIL and RCPT go in one write, then DATA, the message and QUIT")
    func pipelined() async throws {
        let (server, client) = try await ScriptedSMTPServer.start()
        try await server.play("""
            S: 220-mx.example.test ESMTP
            S: 220 multi-line greeting
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["PIPELINING", "SIZE 10240000", "AUTH PLAIN LOGIN", "8BITMIME"]))
            \(Self.plainAuth)
            S: 235 2.7.0 Authentication successful
            C: MAIL FROM:<alice@example.test> SIZE=26
            C: RCPT TO:<bob@example.test>
            S: 250 2.1.0 Ok
            S: 250 2.1.5 Ok
            C: DATA
            S: 354 End data with <CR><LF>.<CR><LF>
            C: Subject: hi
            C:
            C: Hello Bob
            C: .
            S: 250 2.0.0 Ok: queued as 4BqX
            C: QUIT
            """)
        let report = try await client.value
        #expect(report.isDelivered)
        #expect(report.dataReplies == [SMTPReply(code: 250, lines: ["2.0.0 Ok: queued as 4BqX"])])
        #expect(report.acceptedRecipients == ["bob@example.test"])
        #expect(report.rejectedRecipients.isEmpty)
        #expect(report.capabilities.maximumSize == 10_240_000)
        try await server.send("221 2.0.0 Bye")
        #expect(try await server.unreadBytes().isEmpty)
        #expect(!server.channel.isActive, "the client hangs up after QUIT's reply")
    }

    @Test("without PIPELINING each RCPT waits for the last reply; a 550 for one of two is reported")
    func oneOfTwoRejected() async throws {
        let submission = SMTPSubmission(
            envelopeFrom: "alice@example.test", recipients: ["bob@example.test", "nobody@example.test"],
            data: Array("Subject: hi\n\n.dot line\n".utf8))
        let (server, client) = try await ScriptedSMTPServer.start(submission)
        try await server.greetAndAuthenticate(capabilities: ["AUTH PLAIN", "SIZE 1000"])
        try await server.play("""
            C: MAIL FROM:<alice@example.test> SIZE=26
            S: 250 2.1.0 Ok
            C: RCPT TO:<bob@example.test>
            S: 250 2.1.5 Ok
            C: RCPT TO:<nobody@example.test>
            S: 550 5.1.1 <nobody@example.test>: Recipient address rejected: User unknown
            C: DATA
            S: 354 go
            C: Subject: hi
            C:
            C: ..dot line
            C: .
            S: 250 2.0.0 Ok: queued as 77
            C: QUIT
            """)
        let report = try await client.value
        #expect(report.isDelivered)
        #expect(report.acceptedRecipients == ["bob@example.test"])
        let rejected = try #require(report.rejectedRecipients.first)
        #expect(report.rejectedRecipients.count == 1)
        #expect(rejected.address == "nobody@example.test")
        #expect(rejected.reply.code == 550)
        #expect(rejected.reply.enhancedCode?.description == "5.1.1")
        #expect(rejected.reply.text.contains("User unknown"))
        #expect(!rejected.isTransientRejection)
    }

    @Test("pipelined, a rejected recipient among accepted ones still gets DATA sent")
    func pipelinedPartialRejection() async throws {
        let submission = SMTPSubmission(
            envelopeFrom: "alice@example.test", recipients: ["x@example.test", "bob@example.test"], data: Array("hi".utf8))
        let (server, client) = try await ScriptedSMTPServer.start(submission)
        try await server.greetAndAuthenticate(capabilities: ["PIPELINING", "AUTH PLAIN"])
        try await server.play("""
            C: MAIL FROM:<alice@example.test>
            C: RCPT TO:<x@example.test>
            C: RCPT TO:<bob@example.test>
            S: 250 Ok
            S: 452 4.2.2 Mailbox full
            S: 250 Ok
            C: DATA
            S: 354 go
            C: hi
            C: .
            S: 250 queued
            C: QUIT
            """)
        let report = try await client.value
        #expect(report.recipients.map(\.isAccepted) == [false, true])
        #expect(report.recipients.first?.isTransientRejection == true)
    }

    @Test("when every recipient is refused the message is not sent and the report says so")
    func allRejected() async throws {
        let submission = SMTPSubmission(
            envelopeFrom: "alice@example.test", recipients: ["a@elsewhere.test", "b@elsewhere.test"], data: [0x41])
        let (server, client) = try await ScriptedSMTPServer.start(submission)
        try await server.greetAndAuthenticate(capabilities: ["PIPELINING", "AUTH PLAIN"])
        try await server.play("""
            C: MAIL FROM:<alice@example.test>
            C: RCPT TO:<a@elsewhere.test>
            C: RCPT TO:<b@elsewhere.test>
            S: 250 Ok
            S: 554 5.7.1 <a@elsewhere.test>: Relay access denied
            S: 554 5.7.1 <b@elsewhere.test>: Relay access denied
            C: QUIT
            """)
        let report = try await client.value
        #expect(!report.isDelivered)
        #expect(report.dataReplies.isEmpty)
        #expect(report.rejectedRecipients.map(\.reply.code) == [554, 554])
        #expect(try await server.unreadBytes().isEmpty, "no DATA after QUIT")
    }

    @Test("a 421 among pipelined replies ends the submission at once: the server is closing",
          arguments: [("S: 421 4.3.2 shutting down", "MAIL FROM"), ("S: 250 Ok\nS: 421 4.3.2 shutting down", "RCPT TO")])
    func closingServer(replies: String, command: String) async throws {
        let submission = SMTPSubmission(
            envelopeFrom: "alice@example.test", recipients: ["a@example.test", "b@example.test"], data: [0x41])
        let (server, client) = try await ScriptedSMTPServer.start(submission)
        try await server.greetAndAuthenticate(capabilities: ["PIPELINING", "AUTH PLAIN"])
        try await server.play("""
            C: MAIL FROM:<alice@example.test>
            C: RCPT TO:<a@example.test>
            C: RCPT TO:<b@example.test>
            \(replies)
            C: QUIT
            """)
        let reply = SMTPReply(code: 421, lines: ["4.3.2 shutting down"])
        #expect(await client.smtpError == .transientFailure(SMTPCommandFailure(command: command, reply: reply)))
    }
}
