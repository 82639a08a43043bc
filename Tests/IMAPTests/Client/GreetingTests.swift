import NIOCore
import Testing

@testable import IMAP

@Suite("Greeting", .timeLimit(.minutes(5)))
struct GreetingTests {
    /// Starts a client on a fresh scripted server and returns both, without a greeting.
    private func starting(
        timeouts: IMAPTimeouts = IMAPTimeouts()
    ) async throws -> (ScriptedServer, Task<IMAPConnection, any Error>) {
        let server = ScriptedServer()
        try await server.activate()
        let channel = server.channel
        let client = Task { try await IMAPConnection.start(on: channel, timeouts: timeouts) }
        try await server.waitForClient()
        return (server, client)
    }

    @Test("capabilities in the greeting spare a CAPABILITY command")
    func capabilitiesFromGreeting() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: "* OK [CAPABILITY IMAP4rev1 LITERAL+ SASL-IR AUTH=PLAIN] Dovecot ready.")
        #expect(imap.capabilities == ["IMAP4REV1", "LITERAL+", "SASL-IR", "AUTH=PLAIN"])
        #expect(imap.isAuthenticated == false)
        #expect(try await server.unreadBytes().isEmpty)
    }

    @Test("a bare greeting is followed by CAPABILITY")
    func capabilityAfterBareGreeting() async throws {
        let (server, client) = try await starting()
        try await server.play("""
            S: * OK IMAP4rev1 server ready
            C: A0001 CAPABILITY
            S: * CAPABILITY IMAP4rev1 STARTTLS IDLE
            S: A0001 OK CAPABILITY completed
            """)
        let imap = try await client.value
        #expect(imap.capabilities == ["IMAP4REV1", "STARTTLS", "IDLE"])
    }

    @Test("Dovecot's 'Waiting for authentication process' note is not the greeting")
    func dovecotWaitingNote() async throws {
        let (server, client) = try await starting()
        try await server.send("* OK Waiting for authentication process to respond..")
        try await server.send("* OK [CAPABILITY IMAP4rev1 ID] Dovecot ready.")
        let imap = try await client.value
        #expect(imap.capabilities == ["IMAP4REV1", "ID"])
    }

    @Test("PREAUTH starts the session authenticated")
    func preauth() async throws {
        let (_, imap) = try await ScriptedServer.connected(
            greeting: "* PREAUTH [CAPABILITY IMAP4rev1] Logged in as alice")
        #expect(imap.isAuthenticated)
    }

    @Test("a BYE greeting is the server refusing us, with its text")
    func byeGreeting() async throws {
        let (server, client) = try await starting()
        try await server.send("* BYE Too many connections from your IP")
        let result = await client.result
        #expect(result.imapError == .serverClosed("Too many connections from your IP"))
        #expect(!server.channel.isActive)
    }

    @Test("a tagged line instead of a greeting is a protocol violation")
    func taggedGreeting() async throws {
        let (server, client) = try await starting()
        try await server.send("A0001 OK hello")
        guard case .protocolViolation? = await client.result.imapError else {
            Issue.record("expected a protocol violation, got \(await client.result)")
            return
        }
    }

    @Test("a server that never greets times out after the connect timeout")
    func greetingTimeout() async throws {
        let (server, client) = try await starting(timeouts: IMAPTimeouts(connect: .seconds(30)))
        await server.advanceTime(by: .seconds(29))
        try await server.send("* OK Waiting for authentication process to respond..")
        await server.advanceTime(by: .seconds(31))
        #expect(await client.result.imapError == .timedOut(.seconds(30)))
        #expect(!server.channel.isActive)
    }

    @Test("the connection closing before the greeting fails the start")
    func closedBeforeGreeting() async throws {
        let (server, client) = try await starting()
        try await server.channel.close()
        #expect(await client.result.imapError == .connectionClosed)
    }
}
