import TestSupport
import Testing

@testable import SMTP

/// The MAIL FROM parameters and the checks made before it: SIZE, 8BITMIME, SMTPUTF8.
@Suite("SMTP MAIL FROM parameters", .timeLimit(.minutes(5)))
struct SubmissionOptionsTests {
    /// The MAIL FROM line the client sends for `submission` to a server offering `capabilities`.
    private func mailFrom(_ submission: SMTPSubmission, capabilities: [String]) async throws -> String {
        let (server, client) = try await ScriptedSMTPServer.start(submission)
        try await server.greetAndAuthenticate(capabilities: capabilities)
        let line = try await server.clientLine()
        try await server.close()
        _ = await client.result
        return line
    }

    private func submission(from: String = "alice@example.test", to: String = "bob@example.test",
                            _ text: String) -> SMTPSubmission {
        SMTPSubmission(envelopeFrom: from, recipients: [to], data: Array(text.utf8))
    }

    @Test("an 8-bit body asks for BODY=8BITMIME when it is offered")
    func eightBitOffered() async throws {
        let line = try await mailFrom(submission("Subject: x\n\ncaf\u{E9}\n"), capabilities: ["AUTH PLAIN", "8BITMIME", "SIZE"])
        #expect(line == "MAIL FROM:<alice@example.test> SIZE=21 BODY=8BITMIME")
    }

    @Test("an 8-bit body goes as is, with a warning, when 8BITMIME is not offered")
    func eightBitNotOffered() async throws {
        let capture = LogCapture()
        let (server, client) = try await ScriptedSMTPServer.start(submission("caf\u{E9}"), logger: capture.logger)
        try await server.greetAndAuthenticate(capabilities: ["AUTH PLAIN"])
        #expect(try await server.clientLine() == "MAIL FROM:<alice@example.test>")
        #expect(capture.text.contains("8BITMIME"))
        try await server.close()
        _ = await client.result
    }

    @Test("an ASCII message never asks for 8BITMIME or SMTPUTF8")
    func ascii() async throws {
        let line = try await mailFrom(submission("Subject: x\n\nplain\n"), capabilities: ["AUTH PLAIN", "8BITMIME", "SMTPUTF8"])
        #expect(line == "MAIL FROM:<alice@example.test>")
    }

    @Test("non-ASCII headers with ASCII addresses do not need SMTPUTF8")
    func utf8HeadersOnly() async throws {
        let line = try await mailFrom(submission("Subject: \u{D6}l\n\nx\n"), capabilities: ["AUTH PLAIN", "8BITMIME", "SMTPUTF8"])
        #expect(line == "MAIL FROM:<alice@example.test> BODY=8BITMIME")
    }

    @Test("a non-ASCII envelope address asks for SMTPUTF8")
    func utf8Address() async throws {
        let line = try await mailFrom(submission(to: "j\u{F6}rg@example.test", "x"), capabilities: ["AUTH PLAIN", "SMTPUTF8"])
        #expect(line == "MAIL FROM:<alice@example.test> SMTPUTF8")
    }

    @Test("a non-ASCII envelope address without SMTPUTF8 is refused before AUTH")
    func utf8AddressNotOffered() async throws {
        let (server, client) = try await ScriptedSMTPServer.start(submission(from: "j\u{F6}rg@example.test", "x"))
        try await server.play("""
            S: 220 mx ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["AUTH PLAIN", "8BITMIME"]))
            C: QUIT
            """)
        #expect(await client.smtpError == .extensionMissing("SMTPUTF8"))
    }

    @Test("a message over the server's SIZE is refused before AUTH and MAIL FROM")
    func tooLarge() async throws {
        let (server, client) = try await ScriptedSMTPServer.start(submission(String(repeating: "x", count: 2000)))
        try await server.play("""
            S: 220 mx ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["AUTH PLAIN", "SIZE 1000"]))
            C: QUIT
            """)
        let error = await client.smtpError
        #expect(error == .messageTooLarge(size: 2002, limit: 1000))
        #expect(error?.isTransient == false)
    }

    @Test("a message of exactly the server's SIZE is sent")
    func exactlyTheLimit() async throws {
        let line = try await mailFrom(submission(String(repeating: "x", count: 998)), capabilities: ["AUTH PLAIN", "SIZE 1000"])
        #expect(line == "MAIL FROM:<alice@example.test> SIZE=1000")
    }

    @Test("the null reverse-path is sent as <>")
    func nullSender() async throws {
        let line = try await mailFrom(submission(from: "", "x"), capabilities: ["AUTH PLAIN"])
        #expect(line == "MAIL FROM:<>")
    }
}
