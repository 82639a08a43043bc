import Foundation
import Synchronization
import Testing

@testable import IMAP

@Suite("Message commands", .timeLimit(.minutes(5)))
struct MessageCommandTests {
    @Test("UID FETCH returns only the requested UIDs; other FETCHes become events")
    func fetchFiltersUnsolicited() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let fetched = imap.uidFetch(UIDSet([101...102]), items: [.flags, .rfc822Size])
        try await server.play(#"""
            C: A0001 UID FETCH 101:102 (UID FLAGS RFC822.SIZE)
            S: * 1 FETCH (UID 101 FLAGS (\Seen) RFC822.SIZE 2048)
            S: * 7 FETCH (UID 500 FLAGS (\Flagged))
            S: * 2 FETCH (FLAGS (\Deleted))
            S: * 3 FETCH (FLAGS () UID 102 RFC822.SIZE 10)
            S: A0001 OK Fetch completed
            """#)
        let result = try await fetched
        #expect(result == [
            FetchAttributes(uid: 101, flags: [#"\Seen"#], rfc822Size: 2048),
            FetchAttributes(uid: 102, flags: [], rfc822Size: 10),
        ])
        var events: [IMAPEvent] = []
        for await event in imap.events.prefix(2) { events.append(event) }
        #expect(events == [
            .untagged(.fetch(sequence: 7, attributes: FetchAttributes(uid: 500, flags: [#"\Flagged"#]))),
            .untagged(.fetch(sequence: 2, attributes: FetchAttributes(flags: [#"\Deleted"#]))),
        ])
    }

    @Test("a body section's literal goes to the sink in pieces, with the FETCH's UID at its end")
    func fetchStreamsSection() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        let pieces = Mutex<[LiteralSink.Piece]>([])
        let sink = LiteralSink(section: "2") { piece in pieces.withLock { $0.append(piece) } }
        async let fetched = imap.uidFetch(9, section: "2", into: sink)
        try await server.play(#"""
            C: A0001 UID FETCH 9 (UID BODY.PEEK[2])
            S: * 1 FETCH (FLAGS (\Seen))
            S: * 4 FETCH (UID 9 BODY[2] {7}
            S: Hello
            S: )
            S: A0001 OK done
            """#)
        let result = try await fetched
        #expect(result?.uid == 9 && result?.body("2") == [])
        let received = pieces.withLock { $0 }
        #expect(received.first == .begins(length: 7) && received.last == .ended(uid: 9))
        let bytes = received.flatMap { piece -> [UInt8] in if case .bytes(let bytes) = piece { bytes } else { [] } }
        #expect(bytes == Array("Hello\r\n".utf8))
    }

    @Test("two FETCHes of one UID are merged into one result")
    func fetchMergesSameUID() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let fetched = imap.uidFetch(UIDSet(uids: [7]), items: [.uid, .bodyPeek("HEADER.FIELDS (SUBJECT)")])
        try await server.play(#"""
            C: A0001 UID FETCH 7 (UID BODY.PEEK[HEADER.FIELDS (SUBJECT)])
            S: * 1 FETCH (UID 7 FLAGS (\Seen))
            S: * 1 FETCH (UID 7 BODY[HEADER.FIELDS (SUBJECT)] {4}
            S: Hi
            S: )
            S: A0001 OK done
            """#)
        let result = try await fetched
        #expect(result.count == 1)
        #expect(result.first?.flags == [#"\Seen"#])
        #expect(result.first?.bodySections.values.first == Array("Hi\r\n".utf8))
    }

    @Test("CHANGEDSINCE is sent with CONDSTORE and refused without it")
    func changedSince() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        let refused = await outcome { try await imap.uidFetch(UIDSet([1...10]), items: [.flags], changedSince: 5) }
        #expect(refused.imapError == .capabilityMissing(.condStore))
        #expect(try await server.unreadBytes().isEmpty)

        let (condServer, condImap) = try await ScriptedServer.connected(
            greeting: "* OK [CAPABILITY IMAP4rev1 CONDSTORE] ready")
        async let fetched = condImap.uidFetch(UIDSet([1...4_294_967_295]), items: [.flags], changedSince: 715)
        try await condServer.play(#"""
            C: A0001 UID FETCH 1:* (UID FLAGS) (CHANGEDSINCE 715)
            S: * 4 FETCH (UID 40 MODSEQ (720) FLAGS (\Seen))
            S: A0001 OK done
            """#)
        #expect(try await fetched.map(\.modSeq) == [720])
    }

    @Test("an empty UID set sends nothing")
    func emptySet() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        #expect(try await imap.uidFetch(UIDSet(), items: [.flags]).isEmpty)
        try await imap.uidStore(UIDSet(), flags: [#"\Seen"#], .add)
        #expect(try await server.unreadBytes().isEmpty)
    }

    @Test("UID SEARCH returns the UIDs")
    func search() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let found = imap.uidSearch(.since(Date(timeIntervalSince1970: 1_769_904_000)))
        try await server.play("""
            C: A0001 UID SEARCH SINCE 1-Feb-2026
            S: * SEARCH 4 9 11
            S: A0001 OK Search completed
            """)
        #expect(try await found == [4, 9, 11])
    }

    @Test("with ESEARCH the UIDs come back as a set: RETURN (ALL) is asked and the set expanded")
    func extendedSearch() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: "* OK [CAPABILITY IMAP4rev1 ESEARCH] ready")
        async let found = imap.uidSearch(.all)
        try await server.play("""
            C: A0001 UID SEARCH RETURN (ALL) ALL
            S: * ESEARCH (TAG "A0001") UID ALL 1:3,7,10:11
            S: A0001 OK Search completed
            """)
        #expect(try await found == [1, 2, 3, 7, 10, 11])
        async let none = imap.uidSearch(.all)
        try await server.play("""
            C: A0002 UID SEARCH RETURN (ALL) ALL
            S: * ESEARCH (TAG "A0002") UID
            S: A0002 OK Search completed
            """)
        #expect(try await none == [])
    }

    @Test("an ESEARCH answer that is not UIDs, or absurdly large, is refused, never taken as UIDs")
    func extendedSearchRefused() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: "* OK [CAPABILITY IMAP4rev1 ESEARCH] ready")
        async let sequence = outcome { try await imap.uidSearch(.all) }
        try await server.play("""
            C: A0001 UID SEARCH RETURN (ALL) ALL
            S: * ESEARCH (TAG "A0001") ALL 1:3
            S: A0001 OK Search completed
            """)
        guard case .protocolViolation? = await sequence.imapError else {
            Issue.record("expected a protocol violation, got \(await sequence)")
            return
        }
        async let huge = outcome { try await imap.uidSearch(.all) }
        try await server.play("""
            C: A0002 UID SEARCH RETURN (ALL) ALL
            S: * ESEARCH (TAG "A0002") UID ALL 1:4294967294
            S: A0002 OK Search completed
            """)
        guard case .protocolViolation? = await huge.imapError else {
            Issue.record("expected a protocol violation, got \(await huge)")
            return
        }
    }

    @Test("keys combined with allOf are sent one after another (IMAP ANDs them)")
    func searchAllOf() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let found = imap.uidSearch(.allOf([.uids(UIDSet([120...UInt32.max])),
                                                 .since(Date(timeIntervalSince1970: 1_769_904_000))]))
        try await server.play("""
            C: A0001 UID SEARCH UID 120:* SINCE 1-Feb-2026
            S: * SEARCH 120 121
            S: A0001 OK Search completed
            """)
        #expect(try await found == [120, 121])
    }

    @Test("search values with a line break travel as a literal; a field name that is not an atom is refused")
    func searchInjection() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let found = imap.uidSearch(.header(field: "Message-ID", value: "x\r\nA9 DELETE INBOX"))
        try await server.play("""
            C: A0001 UID SEARCH HEADER Message-ID {18}
            S: + go ahead
            C: x
            C: A9 DELETE INBOX
            S: * SEARCH
            S: A0001 OK Search completed
            """)
        #expect(try await found == [])
        let result = await outcome { try await imap.uidSearch(.header(field: "Subject\r\nA9 DELETE INBOX", value: "x")) }
        guard case .invalidArgument? = result.imapError else {
            Issue.record("expected invalidArgument, got \(result)")
            return
        }
        let flags = await outcome { try await imap.uidStore(UIDSet(uids: [1]), flags: [#"\Seen) (X"#], .add) }
        guard case .invalidArgument? = flags.imapError else {
            Issue.record("expected invalidArgument, got \(flags)")
            return
        }
        #expect(try await server.unreadBytes().isEmpty)
    }

    @Test("UID STORE returns the new flags of the stored UIDs")
    func store() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let stored = imap.uidStore(UIDSet(uids: [3, 4, 5]), flags: [#"\Seen"#, #"\Flagged"#], .add, silent: false)
        try await server.play(#"""
            C: A0001 UID STORE 3:5 +FLAGS (\Seen \Flagged)
            S: * 1 FETCH (UID 3 FLAGS (\Seen \Flagged))
            S: A0001 OK Store completed
            """#)
        #expect(try await stored.map(\.uid) == [3])
    }

    @Test("UID MOVE returns the COPYUID mapping sent before the expunges")
    func move() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: "* OK [CAPABILITY IMAP4rev1 MOVE UIDPLUS] ready")
        async let moved = imap.uidMove(UIDSet(uids: [10, 11]), to: "[Gmail]/Trash")
        try await server.play("""
            C: A0001 UID MOVE 10:11 "[Gmail]/Trash"
            S: * OK [COPYUID 432 10:11 7:8] Moved UIDs.
            S: * 1 EXPUNGE
            S: * 1 EXPUNGE
            S: A0001 OK Move completed
            """)
        #expect(try await moved == CopiedUIDs(
            uidValidity: 432, source: UIDSet([10...11]), destination: UIDSet([7...8])))
    }

    @Test("without MOVE, UID MOVE is refused before anything is sent")
    func moveRefused() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: "* OK [CAPABILITY IMAP4rev1 UIDPLUS] ready")
        let result = await outcome { try await imap.uidMove(UIDSet(uids: [1]), to: "Trash") }
        #expect(result.imapError == .capabilityMissing(.move))
        #expect(try await server.unreadBytes().isEmpty)
    }

    @Test("APPEND waits for '+' before the message and returns APPENDUID")
    func append() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        let message = Array("Subject: hi\r\n\r\nbody\r\n".utf8)
        let date = Date(timeIntervalSince1970: 1_780_000_000)
        async let appended = imap.append(mailbox: "Sent", flags: [#"\Seen"#], date: date, message: message)
        try await server.play(#"""
            C: A0001 APPEND "Sent" (\Seen) "28-May-2026 20:26:40 +0000" {21}
            S: + OK
            C: Subject: hi
            C:
            C: body
            C:
            S: A0001 OK [APPENDUID 38505 3955] APPEND completed
            """#)
        #expect(try await appended == AppendedUID(uidValidity: 38505, uid: 3955))
    }

    @Test("APPEND under LITERAL+ sends small messages at once and large ones synchronized")
    func appendLiteralPlus() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: "* OK [CAPABILITY IMAP4rev1 LITERAL+] ready")
        async let small = imap.append(mailbox: "Drafts", message: Array("x\r\n".utf8))
        try await server.play("""
            C: A0001 APPEND "Drafts" {3+}
            C: x
            C:
            S: A0001 OK APPEND completed
            """)
        #expect(try await small == nil)
        let large = [UInt8](repeating: UInt8(ascii: "a"), count: IMAPConnection.synchronizingAppendThreshold + 1)
        async let big = outcome { try await imap.append(mailbox: "Drafts", message: large) }
        try await server.play("""
            C: A0002 APPEND "Drafts" {102401}
            """)
        #expect(try await server.unreadBytes().isEmpty)
        try await server.send("+ go ahead")
        try await server.play("C: " + String(repeating: "a", count: large.count))
        try await server.send("A0002 NO [OVERQUOTA] Quota exceeded")
        #expect(await big.imapError == .commandFailed(CommandFailure(
            command: "APPEND", status: .no, code: .other(name: "OVERQUOTA", text: nil), text: "Quota exceeded")))
    }
}
