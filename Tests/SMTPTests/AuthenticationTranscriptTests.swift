import Foundation
import Testing

@testable import SMTP

/// AUTH as the server sees it: LOGIN's prompts, XOAUTH2 and its failure challenge, and
/// a server with nothing usable.
@Suite("SMTP authentication transcripts", .timeLimit(.minutes(5)))
struct AuthenticationTranscriptTests {
    @Test("AUTH LOGIN answers the user and password prompts when PLAIN is not offered")
    func login() async throws {
        let (server, client) = try await ScriptedSMTPServer.start()
        try await server.play("""
            S: 220 mx ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["AUTH LOGIN CRAM-MD5"]))
            C: AUTH LOGIN
            S: 334 VXNlcm5hbWU6
            C: YWxpY2U=
            S: 334 UGFzc3dvcmQ6
            C: \(SASLResponse.login("pw-secret"))
            S: 235 2.7.0 Authentication successful
            C: MAIL FROM:<alice@example.test>
            S: 250 Ok
            C: RCPT TO:<bob@example.test>
            S: 250 Ok
            C: DATA
            S: 354 go
            C: Subject: hi
            C:
            C: Hello Bob
            C: .
            S: 250 Ok
            C: QUIT
            """)
        #expect(try await client.value.isDelivered)
    }

    @Test("a token goes by XOAUTH2 with the initial response")
    func xoauth2() async throws {
        let credential = SMTPCredential.xoauth2(user: "alice@example.test", token: "ya29.tok")
        let (server, client) = try await ScriptedSMTPServer.start(credential: credential)
        try await server.play("""
            S: 220 mx ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["AUTH PLAIN LOGIN XOAUTH2", "PIPELINING"]))
            C: AUTH XOAUTH2 \(SASLResponse.xoauth2(user: "alice@example.test", token: "ya29.tok"))
            S: 235 2.7.0 Accepted
            C: MAIL FROM:<alice@example.test>
            C: RCPT TO:<bob@example.test>
            S: 250 Ok
            S: 250 Ok
            C: DATA
            S: 354 go
            C: Subject: hi
            C:
            C: Hello Bob
            C: .
            S: 250 Ok
            C: QUIT
            """)
        #expect(try await client.value.isDelivered)
    }

    @Test("a refused token: the failure challenge is answered with an empty line and reported")
    func xoauth2Refused() async throws {
        let json = #"{"status":"401","schemes":"Bearer","scope":"https://mail.google.com/"}"#
        let credential = SMTPCredential.xoauth2(user: "alice@example.test", token: "expired")
        let (server, client) = try await ScriptedSMTPServer.start(credential: credential)
        try await server.play("""
            S: 220 mx ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["AUTH XOAUTH2"]))
            C: AUTH XOAUTH2 \(SASLResponse.xoauth2(user: "alice@example.test", token: "expired"))
            S: 334 \(Data(json.utf8).base64EncodedString())
            C:
            S: 535-5.7.8 Username and Password not accepted.
            S: 535 5.7.8 https://support.google.com/mail/?p=BadCredentials
            C: QUIT
            """)
        let error = await client.smtpError
        guard case .authenticationFailed(let reply, let detail) = error else {
            Issue.record("expected an authentication failure, got \(String(describing: error))")
            return
        }
        #expect(reply.code == 535)
        #expect(reply.text.contains("Username and Password not accepted"))
        #expect(detail == json)
    }

    @Test("a password with no PLAIN or LOGIN offered is refused without sending it")
    func noUsableMechanism() async throws {
        let (server, client) = try await ScriptedSMTPServer.start()
        try await server.play("""
            S: 220 mx ESMTP
            C: EHLO [127.0.0.1]
            \(ScriptedSMTPServer.ehloReply(["AUTH XOAUTH2 CRAM-MD5"]))
            C: QUIT
            """)
        #expect(await client.smtpError == .noUsableAuthMechanism(offered: ["CRAM-MD5", "XOAUTH2"]))
    }
}
