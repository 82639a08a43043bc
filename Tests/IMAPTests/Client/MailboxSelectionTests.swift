import Testing

@testable import IMAP

/// APPEND, DELETE and RENAME of the mailbox the connection has open close it first
/// (Courier refuses them otherwise), and never by a CLOSE that would expunge.
@Suite("Leaving the open mailbox", .timeLimit(.minutes(5)))
struct MailboxSelectionTests {
    @Test("the rule: UNSELECT where offered, CLOSE when read-only, EXAMINE then CLOSE when read-write, nothing for another mailbox")
    func rule() {
        let examined = MailboxSelection(name: "INBOX.Work", readOnly: true)
        let selected = MailboxSelection(name: "INBOX.Work", readOnly: false)
        #expect(MailboxSelection.departure(from: examined, before: "INBOX.Work", canUnselect: true) == .unselect)
        #expect(MailboxSelection.departure(from: selected, before: "INBOX.Work", canUnselect: true) == .unselect)
        #expect(MailboxSelection.departure(from: examined, before: "INBOX.Work", canUnselect: false) == .close)
        #expect(MailboxSelection.departure(from: selected, before: "INBOX.Work", canUnselect: false) == .examineThenClose)
        #expect(MailboxSelection.departure(from: selected, before: "INBOX.Other", canUnselect: false) == .none)
        #expect(MailboxSelection.departure(from: nil, before: "INBOX.Work", canUnselect: false) == .none)
    }

    @Test("an APPEND to the EXAMINEd mailbox is preceded by CLOSE (Courier: NO Current box is selected READ-ONLY); bare LFs go as CR LF (18 bytes, not 15)")
    func appendAfterExamine() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let done: Void = {
            _ = try await imap.examine("INBOX.Work")
            try await imap.append(mailbox: "INBOX.Work", message: Array("Subject: x\n\nhi\n".utf8))
            try await imap.append(mailbox: "INBOX.Work", message: Array("Subject: y\r\n\r\nhi\r\n".utf8))
        }()
        try await server.play("""
            C: A0001 EXAMINE "INBOX.Work"
            S: * 0 EXISTS
            S: A0001 OK [READ-ONLY] done
            C: A0002 CLOSE
            S: A0002 OK closed
            C: A0003 APPEND "INBOX.Work" {18}
            S: + go
            C: Subject: x
            C:
            C: hi
            C:
            S: A0003 OK appended
            C: A0004 APPEND "INBOX.Work" {18}
            S: + go
            C: Subject: y
            C:
            C: hi
            C:
            S: A0004 OK appended
            """)
        try await done
    }

    @Test("with UNSELECT offered, DELETE of the open mailbox is preceded by UNSELECT")
    func deleteWithUnselect() async throws {
        let (server, imap) = try await ScriptedServer.connected(greeting: "* OK [CAPABILITY IMAP4rev1 UNSELECT] ready")
        async let done: Void = {
            _ = try await imap.examine("Old")
            try await imap.delete("Old")
        }()
        try await server.play("""
            C: A0001 EXAMINE "Old"
            S: A0001 OK [READ-ONLY] done
            C: A0002 UNSELECT
            S: A0002 OK unselected
            C: A0003 DELETE "Old"
            S: A0003 OK deleted
            """)
        try await done
    }

    @Test("a read-write mailbox is EXAMINEd before CLOSE, so nothing is expunged; RENAME follows")
    func renameAfterSelect() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let done: Void = {
            _ = try await imap.select("Work")
            try await imap.rename("Work", to: "Done")
        }()
        try await server.play("""
            C: A0001 SELECT "Work"
            S: A0001 OK [READ-WRITE] done
            C: A0002 EXAMINE "Work"
            S: A0002 OK [READ-ONLY] done
            C: A0003 CLOSE
            S: A0003 OK closed
            C: A0004 RENAME "Work" "Done"
            S: A0004 OK renamed
            """)
        try await done
    }

    @Test("a server that calls its EXAMINE read-write gets no CLOSE")
    func noCloseWhenStillReadWrite() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let done: Void = {
            _ = try await imap.select("Work")
            try await imap.delete("Work")
        }()
        try await server.play("""
            C: A0001 SELECT "Work"
            S: A0001 OK [READ-WRITE] done
            C: A0002 EXAMINE "Work"
            S: A0002 OK [READ-WRITE] odd
            C: A0003 DELETE "Work"
            S: A0003 OK deleted
            """)
        try await done
    }

    @Test("after a failed SELECT, or for another mailbox, nothing is closed")
    func nothingOpen() async throws {
        let (server, imap) = try await ScriptedServer.connected()
        async let done: Void = {
            _ = try? await imap.select("Gone")
            _ = try await imap.examine("INBOX")
            try await imap.delete("Gone")
        }()
        try await server.play("""
            C: A0001 SELECT "Gone"
            S: A0001 NO [NONEXISTENT] no such mailbox
            C: A0002 EXAMINE "INBOX"
            S: A0002 OK [READ-ONLY] done
            C: A0003 DELETE "Gone"
            S: A0003 OK deleted
            """)
        try await done
    }
}
