import NIOCore
import Testing

@testable import IMAP

@Suite("IDLE", .timeLimit(.minutes(5)))
struct IdleTests {
    static let greeting = "* OK [CAPABILITY IMAP4rev1 IDLE] ready"

    @Test("EXISTS ends the IDLE with .changed after DONE and the tagged OK")
    func existsEndsIdle() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: Self.greeting)
        async let idled = imap.idle(maximum: .seconds(1200))
        try await server.play("""
            C: A0001 IDLE
            S: + idling
            S: * 4 EXISTS
            C: DONE
            S: * 1 RECENT
            S: A0001 OK IDLE terminated
            """)
        #expect(try await idled == .changed)
        var events = imap.events.makeAsyncIterator()
        #expect(await events.next() == .untagged(.exists(4)))
        #expect(await events.next() == .untagged(.recent(1)))
        try await expectUsable(server, imap, tag: "A0002")
    }

    @Test("keepalives are ignored and a silence up to maximum does not time out")
    func keepalivesIgnored() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: Self.greeting, timeouts: IMAPTimeouts(response: .seconds(120)))
        async let idled = imap.idle(maximum: .seconds(1200))
        try await server.play("""
            C: A0001 IDLE
            S: + idling
            """)
        await server.advanceTime(by: .seconds(100))
        try await server.send("* OK Still here")
        await server.advanceTime(by: .seconds(1000))
        #expect(server.channel.isActive, "silence while idling is not a dead server")
        #expect(try await server.unreadBytes().isEmpty, "a keepalive must not end the IDLE")
        try await server.play("""
            S: * 2 EXPUNGE
            C: DONE
            S: A0001 OK IDLE terminated
            """)
        #expect(try await idled == .changed)
        var events = imap.events.makeAsyncIterator()
        #expect(await events.next() == .untagged(.expunge(2)), "no event for the keepalive")
        try await expectUsable(server, imap, tag: "A0002")
    }

    @Test("after maximum, DONE is sent and .timedOut returned; re-issuing works")
    func timesOutAndReissues() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: Self.greeting)
        for tag in ["A0001", "A0002"] {
            async let idled = imap.idle(maximum: .seconds(600))
            try await server.play("""
                C: \(tag) IDLE
                S: + idling
                """)
            await server.advanceTime(by: .seconds(599))
            #expect(try await server.unreadBytes().isEmpty, "DONE before maximum")
            await server.advanceTime(by: .seconds(1))
            try await server.play("""
                C: DONE
                S: \(tag) OK IDLE terminated
                """)
            #expect(try await idled == .timedOut)
        }
        try await expectUsable(server, imap, tag: "A0003")
    }

    @Test("a server silent after DONE fails with the usual response timeout")
    func silentAfterDone() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: Self.greeting, timeouts: IMAPTimeouts(response: .seconds(120)))
        async let idled = outcome { try await imap.idle(maximum: .seconds(600)) }
        try await server.play("""
            C: A0001 IDLE
            S: + idling
            """)
        await server.advanceTime(by: .seconds(600))
        try await server.play("C: DONE")
        await server.advanceTime(by: .seconds(120))
        #expect(await idled.imapError == .timedOut(.seconds(120)))
        #expect(!server.channel.isActive)
    }

    @Test("stopIdle from another task ends the IDLE with .stopped")
    func stoppedFromAnotherTask() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: Self.greeting)
        async let idled = imap.idle(maximum: .seconds(1200))
        try await server.play("""
            C: A0001 IDLE
            S: + idling
            """)
        await Task.detached { imap.stopIdle() }.value
        try await server.play("""
            C: DONE
            S: A0001 OK IDLE terminated
            """)
        #expect(try await idled == .stopped)
        try await expectUsable(server, imap, tag: "A0002")
    }

    @Test("a stop before the server's + sends DONE only once the + arrives")
    func stopBeforeContinuation() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: Self.greeting)
        async let idled = imap.idle(maximum: .seconds(1200))
        try await server.play("C: A0001 IDLE")
        imap.stopIdle()
        #expect(try await server.unreadBytes().isEmpty, "DONE must not precede the +")
        try await server.play("""
            S: + idling
            C: DONE
            S: A0001 OK IDLE terminated
            """)
        #expect(try await idled == .stopped)
    }

    @Test("cancelling the idling task ends the IDLE with .stopped")
    func cancelledTask() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: Self.greeting)
        let idling = Task { try await imap.idle(maximum: .seconds(1200)) }
        try await server.play("""
            C: A0001 IDLE
            S: + idling
            """)
        idling.cancel()
        try await server.play("""
            C: DONE
            S: A0001 OK IDLE terminated
            """)
        #expect(try await idling.value == .stopped)
        try await expectUsable(server, imap, tag: "A0002")
    }

    @Test("a task cancelled before IDLE sends DONE as soon as the + arrives")
    func cancelledBeforeIdle() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: Self.greeting)
        let idling = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await imap.idle(maximum: .seconds(1200))
        }
        try await server.play("""
            C: A0001 IDLE
            S: + idling
            C: DONE
            S: A0001 OK IDLE terminated
            """)
        #expect(try await idling.value == .stopped)
    }

    @Test("a command issued during IDLE stops it and then runs")
    func commandStopsIdle() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: Self.greeting)
        async let idled = imap.idle(maximum: .seconds(1200))
        try await server.play("""
            C: A0001 IDLE
            S: + idling
            """)
        async let found = imap.uidSearch(.all)
        try await server.play("""
            C: DONE
            S: A0001 OK IDLE terminated
            C: A0002 UID SEARCH ALL
            S: * SEARCH 5
            S: A0002 OK done
            """)
        #expect(try await idled == .stopped)
        #expect(try await found == [5])
    }

    @Test("BYE during IDLE throws serverClosed and closes")
    func byeDuringIdle() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: Self.greeting)
        async let idled = outcome { try await imap.idle(maximum: .seconds(1200)) }
        try await server.play("""
            C: A0001 IDLE
            S: + idling
            S: * BYE Server shutting down
            """)
        #expect(await idled.imapError == .serverClosed("Server shutting down"))
        #expect(!server.channel.isActive)
    }

    @Test("a dropped connection during IDLE throws connectionClosed")
    func closedDuringIdle() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: Self.greeting)
        async let idled = outcome { try await imap.idle(maximum: .seconds(1200)) }
        try await server.play("""
            C: A0001 IDLE
            S: + idling
            """)
        try await server.channel.close()
        #expect(await idled.imapError == .connectionClosed)
    }

    @Test("IDLE is refused without the capability and nothing is sent")
    func capabilityMissing() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        let refused = await outcome { try await imap.idle(maximum: .seconds(1200)) }
        #expect(refused.imapError == .capabilityMissing(.idle))
        #expect(try await server.unreadBytes().isEmpty)
        try await expectUsable(server, imap, tag: "A0001")
    }

    @Test("a NO to IDLE is a command error")
    func idleRefused() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: Self.greeting)
        async let idled = outcome { try await imap.idle(maximum: .seconds(1200)) }
        try await server.play("""
            C: A0001 IDLE
            S: A0001 NO No mailbox selected
            """)
        #expect(await idled.imapError == .commandFailed(
            CommandFailure(command: "IDLE", status: .no, text: "No mailbox selected")))
        try await expectUsable(server, imap, tag: "A0002")
    }

    /// The connection takes a command and returns its answer.
    private func expectUsable(
        _ server: ScriptedServer, _ imap: IMAPConnection, tag: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        async let found = imap.uidSearch(.all)
        try await server.play("""
            C: \(tag) UID SEARCH ALL
            S: * SEARCH 3 7
            S: \(tag) OK done
            """)
        #expect(try await found == [3, 7], sourceLocation: sourceLocation)
    }
}
