import NIOCore
import TestSupport
import Testing
import Transport

@testable import SMTP

@Suite("SMTP STARTTLS", .timeLimit(.minutes(5)))
struct StartTLSTests {
    private func starting(logger: LogCapture = LogCapture()) async throws
        -> (ScriptedSMTPServer, Task<SMTPDeliveryReport, any Error>) {
        let setup = TLSSetup(context: try TLSOptions().makeContext(), serverHostname: "smtp.example.test")
        return try await ScriptedSMTPServer.start(protection: .startTLS, startTLS: setup, logger: logger.logger)
    }

    @Test("STARTTLS not offered: refused with QUIT, no AUTH and no message sent")
    func notOffered() async throws {
        let (server, client) = try await starting()
        try await server.play("""
            S: 220 mx.example.test ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["PIPELINING", "AUTH PLAIN LOGIN"]))
            C: QUIT
            """)
        #expect(await client.smtpError == .startTLSNotOffered)
        #expect(try await server.unreadBytes().isEmpty)
    }

    @Test("a refused STARTTLS is reported as the server's refusal, nothing else is sent")
    func refused() async throws {
        let (server, client) = try await starting()
        try await server.play("""
            S: 220 mx.example.test ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["STARTTLS", "AUTH PLAIN"]))
            C: STARTTLS
            S: 454 4.7.0 TLS not available due to local problem
            C: QUIT
            """)
        let expected = SMTPCommandFailure(command: "STARTTLS", reply: SMTPReply(code: 454, lines: ["4.7.0 TLS not available due to local problem"]))
        #expect(await client.smtpError == .transientFailure(expected))
    }

    @Test("after 220 the TLS handshake starts and plaintext injected behind the 220 is dropped")
    func upgradeDropsInjectedBytes() async throws {
        let capture = LogCapture()
        let (server, client) = try await starting(logger: capture)
        try await server.play("""
            S: 220 mx.example.test ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["STARTTLS", "AUTH PLAIN"]))
            C: STARTTLS
            """)
        try await server.send("220 2.0.0 Ready to start TLS\n250-injected\n250 AUTH PLAIN")
        let hello = try await server.unreadBytes()
        #expect(hello.first == 0x16, "a TLS handshake record (ClientHello) follows the 220")
        #expect(!String(decoding: hello, as: UTF8.self).contains("EHLO"), "EHLO waits for the handshake")
        #expect(!String(decoding: hello, as: UTF8.self).contains("AUTH"))
        try await server.close()
        #expect(await client.smtpError == .connectionClosed)
        #expect(capture.text.contains("Ready to start TLS"))
        #expect(!capture.text.contains("injected"))
    }

    @Test("capabilities learnt in plaintext are forgotten: AUTH follows the EHLO after TLS")
    func capabilitiesAskedAgain() {
        var machine = SubmissionStateMachine(submission: .sample, credential: .sample, protection: .startTLS)
        _ = machine.receive(SMTPReply(code: 220, lines: ["mx"]))
        #expect(machine.receive(SMTPReply(code: 250, lines: ["mx", "STARTTLS", "AUTH PLAIN", "SIZE 10"]))
            == [.send([.startTLS])])
        #expect(machine.receive(SMTPReply(code: 220, lines: ["go"])) == [.startTLS, .send([.ehlo("[127.0.0.1]")])])
        #expect(machine.capabilities == SMTPCapabilities())
        #expect(machine.receive(SMTPReply(code: 250, lines: ["mx", "AUTH LOGIN"])) == [.send([.auth(.login, initialResponse: nil)])],
                "the plaintext SIZE 10 and AUTH PLAIN no longer count")
    }

    @Test("implicit TLS never sends STARTTLS, whatever the server offers")
    func implicitTLS() {
        var machine = SubmissionStateMachine(submission: .sample, credential: .sample, protection: .implicitTLS)
        _ = machine.receive(SMTPReply(code: 220, lines: ["mx"]))
        let actions = machine.receive(SMTPReply(code: 250, lines: ["mx", "STARTTLS", "AUTH PLAIN"]))
        #expect(actions == [.send([.auth(.plain, initialResponse: SASLResponse.plain(user: "alice", password: "pw-secret"))])])
    }
}
