import TestSupport
import Testing

@testable import SMTP

/// Passwords, tokens and the AUTH lines that carry them never reach a log or an error.
@Suite("SMTP secrets stay out of logs", .timeLimit(.minutes(5)))
struct SecretLoggingTests {
    /// Every spelling of `secret` that could leak: as is, and inside each SASL response.
    private func leaks(of secret: String, user: String = "alice") -> [String] {
        [secret, SASLResponse.login(secret), SASLResponse.plain(user: user, password: secret),
         SASLResponse.xoauth2(user: user, token: secret)]
    }

    @Test("AUTH PLAIN is logged as AUTH PLAIN <redacted>, and a refusal quotes only the server")
    func plain() async throws {
        let capture = LogCapture()
        let credential = SMTPCredential.password(user: "alice", password: "hunter2-secret")
        let (server, client) = try await ScriptedSMTPServer.start(credential: credential, logger: capture.logger)
        try await server.play("""
            S: 220 mx ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["AUTH PLAIN"]))
            C: AUTH PLAIN \(SASLResponse.plain(user: "alice", password: "hunter2-secret"))
            S: 535 5.7.8 Error: authentication failed
            C: QUIT
            """)
        let error = try #require(await client.smtpError)
        #expect(capture.text.contains("C: AUTH PLAIN <redacted>"))
        for leak in leaks(of: "hunter2-secret") {
            #expect(!capture.text.contains(leak))
            #expect(!"\(error)".contains(leak))
        }
    }

    @Test("AUTH LOGIN's user and password lines are redacted")
    func login() async throws {
        let capture = LogCapture()
        let credential = SMTPCredential.password(user: "alice", password: "hunter2-secret")
        let (server, client) = try await ScriptedSMTPServer.start(credential: credential, logger: capture.logger)
        try await server.play("""
            S: 220 mx ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["AUTH LOGIN"]))
            C: AUTH LOGIN
            S: 334 VXNlcm5hbWU6
            C: YWxpY2U=
            S: 334 UGFzc3dvcmQ6
            C: \(SASLResponse.login("hunter2-secret"))
            S: 535 5.7.8 Error: authentication failed
            C: QUIT
            """)
        _ = await client.result
        #expect(capture.text.contains("C: <redacted>"))
        for leak in leaks(of: "hunter2-secret") { #expect(!capture.text.contains(leak)) }
    }

    @Test("an XOAUTH2 token is redacted, the empty answer to its challenge too")
    func xoauth2() async throws {
        let capture = LogCapture()
        let credential = SMTPCredential.xoauth2(user: "alice", token: "ya29.very-secret-token")
        let (server, client) = try await ScriptedSMTPServer.start(credential: credential, logger: capture.logger)
        try await server.play("""
            S: 220 mx ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["AUTH XOAUTH2"]))
            C: AUTH XOAUTH2 \(SASLResponse.xoauth2(user: "alice", token: "ya29.very-secret-token"))
            S: 334 eyJzdGF0dXMiOiI0MDEifQ==
            C:
            S: 535 5.7.8 rejected
            C: QUIT
            """)
        let error = try #require(await client.smtpError)
        #expect(capture.text.contains("C: AUTH XOAUTH2 <redacted>"))
        for leak in leaks(of: "ya29.very-secret-token") {
            #expect(!capture.text.contains(leak))
            #expect(!"\(error)".contains(leak))
        }
    }
}
