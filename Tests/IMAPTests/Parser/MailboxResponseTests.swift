import Testing
@testable import IMAP

@Suite("Mailbox and server data")
struct MailboxResponseTests {
    static let untagged: [(String, UntaggedResponse)] = [
        ("* CAPABILITY IMAP4rev1 LITERAL+ SASL-IR ID ENABLE IDLE AUTH=PLAIN\n",
         .capability(["IMAP4REV1", "LITERAL+", "SASL-IR", "ID", "ENABLE", "IDLE", "AUTH=PLAIN"])),
        ("* CAPABILITY\n", .capability([])),
        ("* CAPABILITY (IMAP4rev1 \"x\n", .capability(["(IMAP4REV1", "\"X"])),
        ("* ENABLED CONDSTORE QRESYNC\n", .enabled(["CONDSTORE", "QRESYNC"])),
        ("* 172 EXISTS\n", .exists(172)),
        ("* 0 EXISTS\n", .exists(0)),
        ("* 1 RECENT\n", .recent(1)),
        ("* 44 EXPUNGE\n", .expunge(44)),
        ("* FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded)\n",
         .flags(["\\Answered", "\\Flagged", "\\Deleted", "\\Seen", "\\Draft", "$Forwarded"])),
        ("* FLAGS ()\n", .flags([])),
        ("* SEARCH 2 84 882\n", .search([2, 84, 882], modSeq: nil)),
        ("* SEARCH\n", .search([], modSeq: nil)),
        ("* SEARCH 2 5 6 (MODSEQ 917162500)\n", .search([2, 5, 6], modSeq: 917_162_500)),
        ("* ESEARCH (TAG \"A282\") MIN 2 COUNT 3\n", .esearch(ESearchResult(tag: "A282", min: 2, count: 3))),
        ("* ESEARCH (TAG \"A1\") UID ALL 4:18,21 MAX 21 MODSEQ 5 X-FOO (1 2)\n", .esearch(ESearchResult(
            tag: "A1", uid: true, max: 21, all: UIDSet("4:18,21"), modSeq: 5))),
        ("* STATUS blurdybloop (MESSAGES 231 UIDNEXT 44292)\n", .status(mailbox: "blurdybloop", ["MESSAGES": 231, "UIDNEXT": 44292])),
        ("* STATUS \"Sent Items\" (unseen 0 HIGHESTMODSEQ 9007199254740993)\n",
         .status(mailbox: "Sent Items", ["UNSEEN": 0, "HIGHESTMODSEQ": 9_007_199_254_740_993])),
        ("* VANISHED (EARLIER) 41,43:116,118,120:211,214:540\n",
         .vanished(earlier: true, uids: UIDSet("41,43:116,118,120:211,214:540") ?? UIDSet())),
        ("* VANISHED 405\n", .vanished(earlier: false, uids: UIDSet([405...405]))),
        ("* NAMESPACE ((\"\" \"/\")) NIL NIL\n", .namespace(NamespaceResponse(personal: [.init(prefix: "", delimiter: "/")]))),
        ("* ID (\"name\" \"Dovecot\")\n", .other(keyword: "ID", text: "(\"name\" \"Dovecot\")")),
        ("* 3 XFOO bar\n", .other(keyword: "XFOO", text: "bar")),
        ("* QUOTA \"\" (STORAGE 10 512)\n", .other(keyword: "QUOTA", text: "\"\" (STORAGE 10 512)")),
    ]

    @Test("parses untagged data", arguments: untagged)
    func parsesUntagged(input: String, expected: UntaggedResponse) throws {
        #expect(try parse(input) == .untagged(expected))
    }

    static let lists: [(String, MailboxListEntry)] = [
        ("* LIST (\\HasNoChildren) \"/\" INBOX\n", MailboxListEntry(attributes: ["\\hasnochildren"], delimiter: "/", name: "INBOX")),
        ("* LIST (\\HasNoChildren \\Sent) \"/\" \"Sent Messages\"\n",
         MailboxListEntry(attributes: ["\\hasnochildren", "\\sent"], delimiter: "/", name: "Sent Messages")),
        ("* LIST (\\Noselect) NIL \"\"\n", MailboxListEntry(attributes: ["\\noselect"], delimiter: nil, name: "")),
        ("* LIST () \"\\\\\" Public\\Folder\n", MailboxListEntry(attributes: [], delimiter: "\\", name: "Public\\Folder")),
        ("* LIST () \".\" \(literal("Entw&APw-rfe"))\n", MailboxListEntry(attributes: [], delimiter: ".", name: "Entw&APw-rfe")),
        ("* LIST (\\HasChildren) \"/\" \"a \\\"quoted\\\" name\" (\"CHILDINFO\" (\"SUBSCRIBED\"))\n",
         MailboxListEntry(attributes: ["\\haschildren"], delimiter: "/", name: "a \"quoted\" name")),
        ("* LIST (\\All \\HasNoChildren) \"/\" \"[Gmail]/All Mail\"\n",
         MailboxListEntry(attributes: ["\\all", "\\hasnochildren"], delimiter: "/", name: "[Gmail]/All Mail")),
    ]

    @Test("parses LIST entries with raw names", arguments: lists)
    func parsesList(input: String, expected: MailboxListEntry) throws {
        #expect(try parse(input) == .untagged(.list(expected)))
    }

    @Test("LSUB and XLIST share the LIST grammar")
    func lsubAndXList() throws {
        let entry = MailboxListEntry(attributes: ["\\inbox", "\\haschildren"], delimiter: "/", name: "Inbox")
        #expect(try parse("* XLIST (\\Inbox \\HasChildren) \"/\" \"Inbox\"\n") == .untagged(.list(entry)))
        #expect(try parse("* LSUB (\\Inbox \\HasChildren) \"/\" Inbox\n") == .untagged(.lsub(entry)))
        #expect(entry.has("\\Inbox"))
    }

    @Test("keeps 8-bit mailbox names byte for byte")
    func eightBitName() throws {
        var parser = ResponseParser()
        let bytes: [UInt8] = Array("* LIST () \"/\" \"Entw".utf8) + [0xFC] + Array("rfe\"\r\n".utf8)
        guard case .untagged(.list(let entry)) = try parser.parse(bytes) else {
            Issue.record("not a LIST")
            return
        }
        #expect(entry.rawName == Array("Entw".utf8) + [0xFC] + Array("rfe".utf8))
    }

    static let failures: [(String, IMAPParseError.Kind)] = [
        ("* 5\n", .incomplete),
        ("* 99999999999 EXISTS\n", .malformed),
        ("* LIST\n", .incomplete),
        ("* LIST (\\Noselect \"/\" foo\n", .incomplete),
        ("* LIST () \"/\"\n", .incomplete),
        ("* LIST () \"/\" {10}\nab\n", .incomplete),
        ("* STATUS INBOX (MESSAGES x)\n", .malformed),
        ("* STATUS INBOX (MESSAGES 3\n", .incomplete),
        ("* SEARCH 1 2 x\n", .malformed),
        ("* SEARCH 1 (FOO 2)\n", .malformed),
        ("* SEARCH 4294967296\n", .malformed),
        ("* VANISHED (LATER) 1\n", .malformed),
        ("* VANISHED 1:x\n", .malformed),
        ("* VANISHED\n", .incomplete),
        ("* FLAGS (\\Seen\n", .incomplete),
        ("* ESEARCH (TAG) 1\n", .malformed),
    ]

    @Test("refuses malformed or truncated data", arguments: failures)
    func refusesMalformed(input: String, kind: IMAPParseError.Kind) {
        #expect(parseErrorKind(input) == kind)
    }
}
