import Testing

@testable import IMAP

@Suite("Mailbox commands", .timeLimit(.minutes(5)))
struct MailboxCommandTests {
    @Test("SELECT with CONDSTORE reports every field of the mailbox")
    func selectWithCondStore() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: "* OK [CAPABILITY IMAP4rev1 CONDSTORE] ready")
        async let selected = imap.select("INBOX")
        try await server.play(#"""
            C: A0001 SELECT "INBOX" (CONDSTORE)
            S: * FLAGS (\Answered \Flagged \Deleted \Seen \Draft $Forwarded)
            S: * OK [PERMANENTFLAGS (\Answered \Flagged \Deleted \Seen \Draft $Forwarded \*)] Flags permitted.
            S: * 172 EXISTS
            S: * 1 RECENT
            S: * OK [UNSEEN 12] First unseen.
            S: * OK [UIDVALIDITY 3857529045] UIDs valid
            S: * OK [UIDNEXT 4392] Predicted next UID
            S: * OK [HIGHESTMODSEQ 715194045007] Highest
            S: A0001 OK [READ-WRITE] Select completed (0.001 + 0.000 secs).
            """#)
        let mailbox = try await selected
        #expect(mailbox == SelectedMailbox(
            name: "INBOX", exists: 172, recent: 1, uidValidity: 3_857_529_045, uidNext: 4392,
            highestModSeq: 715_194_045_007,
            flags: [#"\Answered"#, #"\Flagged"#, #"\Deleted"#, #"\Seen"#, #"\Draft"#, "$Forwarded"],
            permanentFlags: [#"\Answered"#, #"\Flagged"#, #"\Deleted"#, #"\Seen"#, #"\Draft"#, "$Forwarded", #"\*"#],
            firstUnseen: 12, readOnly: false))
    }

    @Test("HIGHESTMODSEQ without the CONDSTORE capability is ignored (Yahoo)")
    func highestModSeqWithoutCapability() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let selected = imap.select("Inbox")
        try await server.play("""
            C: A0001 SELECT "Inbox"
            S: * 3 EXISTS
            S: * OK [UIDVALIDITY 1] ok
            S: * OK [HIGHESTMODSEQ 99]
            S: A0001 OK [READ-WRITE] done
            """)
        let mailbox = try await selected
        #expect(mailbox.highestModSeq == nil)
        #expect(mailbox.uidNext == nil)
        #expect(mailbox.exists == 3)
    }

    @Test("NOMODSEQ means no modification sequences; EXAMINE is read-only")
    func examineNoModSeq() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: "* OK [CAPABILITY IMAP4rev1 CONDSTORE] ready")
        async let selected = imap.examine("Archive")
        try await server.play(#"""
            C: A0001 EXAMINE "Archive" (CONDSTORE)
            S: * FLAGS (\Seen)
            S: * 0 EXISTS
            S: * OK [UIDVALIDITY 7] ok
            S: * OK [NOMODSEQ] Sorry, this mailbox format doesn't support modsequences
            S: A0001 OK [READ-ONLY] done
            """#)
        let mailbox = try await selected
        #expect(mailbox.highestModSeq == nil)
        #expect(mailbox.readOnly)
        #expect(mailbox.permanentFlags == [#"\Seen"#], "FLAGS stand in for missing PERMANENTFLAGS")
    }

    @Test("a failed SELECT is a command error with the server's code")
    func selectFails() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let selected = outcome { try await imap.select("Nope") }
        try await server.play("""
            C: A0001 SELECT "Nope"
            S: A0001 NO [NONEXISTENT] Mailbox doesn't exist: Nope
            """)
        #expect(await selected.imapError == .commandFailed(CommandFailure(
            command: "SELECT", status: .no, code: .other(name: "NONEXISTENT", text: nil),
            text: "Mailbox doesn't exist: Nope")))
    }

    @Test("LIST asks for special-use attributes when offered and keeps names raw")
    func listSpecialUse() async throws {
        let (server, imap) = try await ScriptedServer.connected(
            greeting: "* OK [CAPABILITY IMAP4rev1 SPECIAL-USE LIST-EXTENDED] ready")
        async let entries = imap.list()
        try await server.play(#"""
            C: A0001 LIST "" "*" RETURN (SPECIAL-USE)
            S: * LIST (\HasNoChildren) "/" INBOX
            S: * LIST (\HasNoChildren \Sent) "/" "[Gmail]/Gesendet"
            S: * LIST (\HasNoChildren) "/" {9}
            S: Entw&APw-
            S: A0001 OK List completed
            """#)
        let list = try await entries
        #expect(list.map(\.name) == ["INBOX", "[Gmail]/Gesendet", "Entw&APw-"])
        #expect(list.count == 3 && list[1].has(#"\Sent"#))
    }

    @Test("LIST without SPECIAL-USE is a plain LIST")
    func listPlain() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let entries = imap.list(reference: "", pattern: "%")
        try await server.play("""
            C: A0001 LIST "" "%"
            S: A0001 OK done
            """)
        #expect(try await entries.isEmpty)
    }

    @Test("ENABLE returns what the server enabled")
    func enable() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let enabled = imap.enable(["CONDSTORE", "QRESYNC"])
        try await server.play("""
            C: A0001 ENABLE CONDSTORE QRESYNC
            S: * ENABLED CONDSTORE
            S: A0001 OK Enabled
            """)
        #expect(try await enabled == ["CONDSTORE"])
    }

    @Test("news during NOOP arrives on the events stream")
    func noopEvents() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let noop: Void = imap.noop()
        try await server.play(#"""
            C: A0001 NOOP
            S: * 23 EXISTS
            S: * 3 EXPUNGE
            S: * 5 FETCH (UID 99 FLAGS (\Seen))
            S: * OK [ALERT] Your mailbox is almost full
            S: A0001 OK NOOP completed
            """#)
        try await noop
        var events: [IMAPEvent] = []
        for await event in imap.events.prefix(4) { events.append(event) }
        #expect(events == [
            .untagged(.exists(23)), .untagged(.expunge(3)),
            .untagged(.fetch(sequence: 5, attributes: FetchAttributes(uid: 99, flags: [#"\Seen"#]))),
            .alert("Your mailbox is almost full"),
        ])
    }
}
