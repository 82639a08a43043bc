import Foundation
import Testing

@testable import IMAP

@Suite("Authentication", .timeLimit(.minutes(5)))
struct AuthenticationTests {
    @Test("LOGIN quotes the password and escapes quotes and backslashes")
    func loginQuoted() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let login: Void = imap.login(user: "alice@example.com", password: #"p"w\d"#)
        try await server.play(#"""
            C: A0001 LOGIN "alice@example.com" "p\"w\\d"
            S: A0001 OK [CAPABILITY IMAP4rev1 MOVE UIDPLUS] Logged in
            """#)
        try await login
        #expect(imap.isAuthenticated)
        #expect(imap.capabilities == ["IMAP4REV1", "MOVE", "UIDPLUS"])
    }

    @Test("LOGIN sends an 8-bit password as a synchronizing literal, only after '+'")
    func loginSynchronizingLiteral() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let login: Void = imap.login(user: "alice", password: "pässwörd")
        try await server.play("""
            C: A0001 LOGIN "alice" {10}
            """)
        #expect(try await server.unreadBytes().isEmpty, "literal bytes sent before the server's '+'")
        try await server.play("""
            S: + Ready for literal data
            C: pässwörd
            S: A0001 OK Logged in
            C: A0002 CAPABILITY
            S: * CAPABILITY IMAP4rev1 MOVE
            S: A0002 OK done
            """)
        try await login
        #expect(imap.supports(.move), "capabilities refreshed after login")
    }

    @Test("LOGIN uses a non-synchronizing literal under LITERAL+")
    func loginLiteralPlus() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: "* OK [CAPABILITY IMAP4rev1 LITERAL+] ready")
        async let login: Void = imap.login(user: "alice", password: "line\r\nbreak")
        try await server.play("""
            C: A0001 LOGIN "alice" {11+}
            C: line
            C: break
            S: A0001 OK [CAPABILITY IMAP4rev1] Logged in
            """)
        try await login
    }

    @Test("a rejected LOGIN is an authentication error with the server's code and text")
    func loginRejected() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let login = outcome { try await imap.login(user: "alice", password: "wrong") }
        try await server.play("""
            C: A0001 LOGIN "alice" "wrong"
            S: A0001 NO [AUTHENTICATIONFAILED] Authentication failed.
            """)
        let failure = CommandFailure(
            command: "LOGIN", status: .no, code: .other(name: "AUTHENTICATIONFAILED", text: nil),
            text: "Authentication failed.")
        #expect(await login.imapError == .authenticationFailed(failure, detail: nil))
        #expect(imap.isAuthenticated == false)
    }

    @Test("AUTHENTICATE PLAIN puts the response on the line under SASL-IR")
    func plainWithInitialResponse() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: "* OK [CAPABILITY IMAP4rev1 SASL-IR AUTH=PLAIN] ready")
        async let auth: Void = imap.authenticatePlain(user: "alice", password: "secret")
        try await server.play("""
            C: A0001 AUTHENTICATE PLAIN AGFsaWNlAHNlY3JldA==
            S: A0001 OK [CAPABILITY IMAP4rev1 CONDSTORE] Logged in
            """)
        try await auth
        #expect(imap.supports(.condStore))
    }

    @Test("AUTHENTICATE PLAIN without SASL-IR answers the server's '+'")
    func plainWithoutInitialResponse() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let auth: Void = imap.authenticatePlain(user: "alice", password: "secret")
        try await server.play("""
            C: A0001 AUTHENTICATE PLAIN
            S: +
            C: AGFsaWNlAHNlY3JldA==
            S: A0001 OK [CAPABILITY IMAP4rev1] Logged in
            """)
        try await auth
    }

    @Test("XOAUTH2 succeeds with the bearer token in one line")
    func xoauth2Success() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: "* OK [CAPABILITY IMAP4rev1 SASL-IR AUTH=XOAUTH2] Gimap ready")
        async let auth: Void = imap.authenticateXOAUTH2(user: "me@gmail.com", token: "ya29.token")
        let expected = SASL.xoauth2(user: "me@gmail.com", token: "ya29.token")
        #expect(expected == "dXNlcj1tZUBnbWFpbC5jb20BYXV0aD1CZWFyZXIgeWEyOS50b2tlbgEB")
        try await server.play("""
            C: A0001 AUTHENTICATE XOAUTH2 \(expected)
            S: * CAPABILITY IMAP4rev1 UNSELECT IDLE NAMESPACE QUOTA ID XLIST CHILDREN X-GM-EXT-1 UIDPLUS MOVE
            S: A0001 OK me@gmail.com authenticated (Success)
            """)
        try await auth
        #expect(imap.capabilities.contains("X-GM-EXT-1"))
    }

    @Test("XOAUTH2 failure: the error JSON is answered with an empty line and surfaced")
    func xoauth2Failure() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: "* OK [CAPABILITY IMAP4rev1 SASL-IR AUTH=XOAUTH2] Gimap ready")
        async let auth = outcome { try await imap.authenticateXOAUTH2(user: "me@gmail.com", token: "expired") }
        let json = #"{"status":"400","schemes":"Bearer","scope":"https://mail.google.com/"}"#
        let challenge = Data(json.utf8).base64EncodedString()
        try await server.play("""
            C: A0001 AUTHENTICATE XOAUTH2 \(SASL.xoauth2(user: "me@gmail.com", token: "expired"))
            S: + \(challenge)
            C:
            S: A0001 NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)
            """)
        guard case .authenticationFailed(let failure, let detail)? = await auth.imapError else {
            Issue.record("expected an authentication failure, got \(await auth)")
            return
        }
        #expect(failure.text == "Invalid credentials (Failure)")
        #expect(detail == json)
    }

    @Test("XOAUTH2 without SASL-IR sends the response after '+', then the empty line on error")
    func xoauth2FailureWithoutInitialResponse() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let auth = outcome { try await imap.authenticateXOAUTH2(user: "u@outlook.com", token: "t") }
        try await server.play("""
            C: A0001 AUTHENTICATE XOAUTH2
            S: +
            C: \(SASL.xoauth2(user: "u@outlook.com", token: "t"))
            S: + eyJzdGF0dXMiOiI0MDEifQ==
            C:
            S: A0001 NO AUTHENTICATE failed.
            """)
        guard case .authenticationFailed(_, let detail)? = await auth.imapError else {
            Issue.record("expected an authentication failure, got \(await auth)")
            return
        }
        #expect(detail == #"{"status":"401"}"#)
    }
}
