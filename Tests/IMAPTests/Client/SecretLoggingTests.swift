import Foundation
import TestSupport
import Testing

@testable import IMAP

/// Passwords and tokens must never reach a log or an error description (issue 3 §5).
@Suite("Secrets stay out of logs", .timeLimit(.minutes(5)))
struct SecretLoggingTests {
    static let password = "S3cr3t-Pässwörd"
    static let token = "ya29.a0AfH6SMBsecretToken"

    /// Every spelling of the secrets that could leak.
    private func leaks(in text: String) -> [String] {
        let spellings = [
            Self.password, Self.token,
            SASL.plain(user: "alice", password: Self.password),
            SASL.xoauth2(user: "alice", token: Self.token),
            Data(Self.password.utf8).base64EncodedString(),
        ]
        return spellings.filter { text.contains($0) }
    }

    @Test("LOGIN with a literal password and a failed LOGIN log no secret")
    func login() async throws {
        let capture = LogCapture()
        let (server, imap) = try await ScriptedServer.connected(logger: capture.logger)
        async let failed = outcome { try await imap.login(user: "alice", password: Self.password) }
        try await server.play("""
            C: A0001 LOGIN "alice" {17}
            S: + go
            C: \(Self.password)
            S: A0001 NO [AUTHENTICATIONFAILED] Authentication failed.
            """)
        let error = await failed.imapError
        #expect(error != nil)
        #expect(leaks(in: capture.text + "\(String(describing: error))").isEmpty)
        #expect(capture.text.contains("LOGIN \"alice\" <redacted>"))
    }

    @Test("AUTHENTICATE PLAIN and XOAUTH2, with and without SASL-IR, log no secret")
    func authenticate() async throws {
        let capture = LogCapture()
        let (server, imap) = try await ScriptedServer.connected(logger: capture.logger)
        async let plain: Void = imap.authenticatePlain(user: "alice", password: Self.password)
        try await server.play("""
            C: A0001 AUTHENTICATE PLAIN
            S: +
            C: \(SASL.plain(user: "alice", password: Self.password))
            S: A0001 OK [CAPABILITY IMAP4rev1 SASL-IR] Logged in
            """)
        try await plain
        async let oauth = outcome { try await imap.authenticateXOAUTH2(user: "alice", token: Self.token) }
        try await server.play("""
            C: A0002 AUTHENTICATE XOAUTH2 \(SASL.xoauth2(user: "alice", token: Self.token))
            S: + eyJzdGF0dXMiOiI0MDAifQ==
            C:
            S: A0002 NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)
            """)
        let error = await oauth.imapError
        #expect(error != nil)
        #expect(leaks(in: capture.text + "\(String(describing: error))").isEmpty)
        #expect(capture.text.contains("AUTHENTICATE XOAUTH2 <redacted>"))
    }
}
