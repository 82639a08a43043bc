import TestSupport
import Transport
import NIOCore
import NIOSSL
import Testing

@testable import IMAP

@Suite("STARTTLS", .timeLimit(.minutes(5)))
struct StartTLSTests {
    private func starting(logger: LogCapture = LogCapture()) async throws -> (ScriptedServer, Task<IMAPConnection, any Error>) {
        let upgrade = TLSSetup(context: try TLSOptions().makeContext(), serverHostname: "imap.example.com")
        let server = ScriptedServer()
        try await server.activate()
        let channel = server.channel
        let client = Task {
            try await IMAPConnection.start(on: channel, transport: .starttls(upgrade), logger: logger.logger)
        }
        try await server.waitForClient()
        return (server, client)
    }

    @Test("STARTTLS configured but not advertised: refused before anything else is sent")
    func notOffered() async throws {
        let (server, client) = try await starting()
        try await server.play("""
            S: * OK IMAP4rev1 ready
            C: A0001 CAPABILITY
            S: * CAPABILITY IMAP4rev1 AUTH=PLAIN LOGIN
            S: A0001 OK done
            """)
        #expect(await client.result.imapError == .startTLSNotOffered)
        #expect(try await server.unreadBytes().isEmpty)
        #expect(!server.channel.isActive)
    }

    @Test("STARTTLS missing from the greeting's capabilities is refused without a round trip")
    func notOfferedInGreeting() async throws {
        let (server, client) = try await starting()
        try await server.send("* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready")
        #expect(await client.result.imapError == .startTLSNotOffered)
        #expect(try await server.unreadBytes().isEmpty)
    }

    @Test("a PREAUTH greeting over plaintext is refused: it can never be upgraded")
    func preauthRefused() async throws {
        let (server, client) = try await starting()
        try await server.send("* PREAUTH [CAPABILITY IMAP4rev1 STARTTLS] welcome")
        #expect(await client.result.imapError == .startTLSNotOffered)
    }

    @Test("after the tagged OK the TLS handshake starts and injected plaintext is dropped")
    func upgradeDiscardsInjectedBytes() async throws {
        let capture = LogCapture()
        let (server, client) = try await starting(logger: capture)
        try await server.play("""
            S: * OK [CAPABILITY IMAP4rev1 STARTTLS LOGINDISABLED] ready
            C: A0001 STARTTLS
            """)
        try await server.send("A0001 OK Begin TLS negotiation now\r\n* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] injected")
        let hello = try await server.unreadBytes()
        #expect(hello.first == 0x16, "a TLS handshake record (ClientHello) follows the OK")
        #expect(!hello.contains(Array("CAPABILITY".utf8)), "nothing is sent in the clear after STARTTLS")
        try await server.channel.close()
        #expect(await client.result.imapError != nil)
        #expect(capture.text.contains("Begin TLS negotiation now"))
        #expect(!capture.text.contains("injected"))
    }
}

extension Array where Element == UInt8 {
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
