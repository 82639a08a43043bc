import NIOCore
import Synchronization
import Testing

@testable import IMAP

@Suite("Session errors and timeouts", .timeLimit(.minutes(5)))
struct SessionErrorTests {
    @Test("BYE in the middle of a command fails it with the server's text and closes")
    func byeMidCommand() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let fetched = outcome { try await imap.uidFetch(UIDSet([1...5]), items: [.flags]) }
        try await server.play("""
            C: A0001 UID FETCH 1:5 (UID FLAGS)
            S: * 1 FETCH (UID 1 FLAGS ())
            S: * BYE Autologout; idle for too long
            """)
        #expect(await fetched.imapError == .serverClosed("Autologout; idle for too long"))
        #expect(!server.channel.isActive)
        var events: [IMAPEvent] = []
        for await event in imap.events { events.append(event) }
        #expect(events == [.untagged(.bye(ResponseState(status: .ok, text: "Autologout; idle for too long")))])
        let after = await outcome { try await imap.noop() }
        #expect(after.imapError != nil, "a closed session refuses new commands at once")
    }

    @Test("BAD is a command error with its text")
    func badCommand() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let search = outcome { try await imap.uidSearch(.all) }
        try await server.play("""
            C: A0001 UID SEARCH ALL
            S: A0001 BAD [CLIENTBUG] Error in IMAP command UID SEARCH: Unknown argument FOO
            """)
        let failure = CommandFailure(
            command: "UID SEARCH", status: .bad, code: .other(name: "CLIENTBUG", text: nil),
            text: "Error in IMAP command UID SEARCH: Unknown argument FOO")
        #expect(await search.imapError == .commandFailed(failure))
        #expect("\(failure)" == "UID SEARCH failed: BAD [CLIENTBUG] Error in IMAP command UID SEARCH: Unknown argument FOO")
    }

    @Test("a tagged NO with [ALERT] is an error and an alert event")
    func alertInTaggedReply() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let login = outcome { try await imap.login(user: "a", password: "b") }
        try await server.play("""
            C: A0001 LOGIN "a" "b"
            S: A0001 NO [ALERT] Too many simultaneous connections. (Failure)
            """)
        guard case .authenticationFailed(let failure, _)? = await login.imapError else {
            Issue.record("expected an authentication failure")
            return
        }
        #expect(failure.code == .alert)
        var iterator = imap.events.makeAsyncIterator()
        #expect(await iterator.next() == .alert("Too many simultaneous connections. (Failure)"))
    }

    @Test("every [ALERT] reaches the alert handler, untagged and tagged, whoever reads events")
    func alertsReachTheHandler() async throws {
        let received = Mutex<[String]>([])
        let (server, imap) = try await ScriptedServer.connected(alerts: { text in received.withLock { $0.append(text) } })
        async let noop: Void = imap.noop()
        try await server.play("""
            C: A0001 NOOP
            S: * OK [ALERT] Your mailbox is 95% full
            S: A0001 OK NOOP completed
            """)
        try await noop
        async let second = outcome { try await imap.noop() }
        try await server.play("""
            C: A0002 NOOP
            S: A0002 NO [ALERT] Account suspended: see your provider
            """)
        _ = await second
        #expect(received.withLock { $0 } == ["Your mailbox is 95% full",
                                             "Account suspended: see your provider"])
    }

    @Test("a reply with an unknown tag is dropped and the session goes on")
    func unknownTag() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let noop: Void = imap.noop()
        try await server.play("""
            C: A0001 NOOP
            S: A0000 OK stale reply from an earlier command
            S: A0001 OK NOOP completed
            """)
        try await noop
    }

    @Test("commands issued together go out one at a time, in order")
    func queuedCommands() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let first: Void = imap.noop()
        async let second: Void = imap.noop()
        try await server.play("C: A0001 NOOP")
        #expect(try await server.unreadBytes().isEmpty, "second command sent before the first completed")
        try await server.play("""
            S: A0001 OK done
            C: A0002 NOOP
            S: A0002 OK done
            """)
        try await first
        try await second
    }

    @Test("a server silent for the response timeout fails the command and closes")
    func responseTimeout() async throws {
        let (server, imap) = try await ScriptedServer.connected(timeouts: IMAPTimeouts(response: .seconds(120)))
        async let fetched = outcome { try await imap.uidFetch(UIDSet([1...5]), items: [.flags]) }
        try await server.play("C: A0001 UID FETCH 1:5 (UID FLAGS)")
        await server.advanceTime(by: .seconds(100))
        try await server.send("* 1 FETCH (UID 1 FLAGS ())")
        await server.advanceTime(by: .seconds(100))
        #expect(server.channel.isActive, "bytes from the server restart the timeout")
        await server.advanceTime(by: .seconds(21))
        #expect(await fetched.imapError == .timedOut(.seconds(120)))
        #expect(!server.channel.isActive)
    }

    @Test("an idle session with nothing outstanding does not time out")
    func idleSessionStaysOpen() async throws {
        let (server, imap) = try await ScriptedServer.connected(timeouts: IMAPTimeouts(response: .seconds(10)))
        await server.advanceTime(by: .seconds(3600))
        #expect(server.channel.isActive)
        withExtendedLifetime(imap) {}
    }

    @Test("the connection dropping mid-command fails the command and queued ones")
    func closedMidCommand() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let first = outcome { try await imap.noop() }
        try await server.play("C: A0001 NOOP")
        async let second = outcome { try await imap.capability() }
        try await server.channel.close()
        #expect(await first.imapError == .connectionClosed)
        #expect(await second.imapError == .connectionClosed)
    }

    @Test("a stream the framer cannot accept ends the session")
    func framingLimit() async throws {
        let server = ScriptedServer()
        try await server.activate()
        let channel = server.channel
        let limits = ParserLimits(maxLiteralSize: 100)
        let client = Task { try await IMAPConnection.start(on: channel, limits: limits) }
        try await server.waitForClient()
        try await server.send("* OK [CAPABILITY IMAP4rev1] ready")
        let imap = try await client.value
        async let fetched = outcome { try await imap.uidFetch(UIDSet(uids: [1]), items: [.bodyPeek("")]) }
        try await server.play("""
            C: A0001 UID FETCH 1 (UID BODY.PEEK[])
            S: * 1 FETCH (UID 1 BODY[] {1000000}
            """)
        guard case .protocolViolation? = await fetched.imapError else {
            Issue.record("expected a protocol violation")
            return
        }
    }

    @Test("LOGOUT completes even when the server hangs up right after BYE")
    func logout() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let done: Void = imap.logout()
        try await server.play("""
            C: A0001 LOGOUT
            S: * BYE Logging out
            """)
        try await server.channel.close()
        await done
        #expect(!server.channel.isActive)
    }
}
