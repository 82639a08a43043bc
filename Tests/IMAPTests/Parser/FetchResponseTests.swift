import Foundation
import Testing
@testable import IMAP

@Suite("FETCH responses")
struct FetchResponseTests {
    static let items: [(String, FetchAttributes)] = [
        ("(UID 4827313)", FetchAttributes(uid: 4_827_313)),
        ("(FLAGS (\\Seen \\Answered $Forwarded))", FetchAttributes(flags: ["\\Seen", "\\Answered", "$Forwarded"])),
        ("(FLAGS ())", FetchAttributes(flags: [])),
        ("(RFC822.SIZE 44827)", FetchAttributes(rfc822Size: 44827)),
        ("(MODSEQ (12121231000))", FetchAttributes(modSeq: 12_121_231_000)),
        ("(X-GM-MSGID 1278455344230334865 X-GM-THRID 1266894439832287888)",
         FetchAttributes(gmailMessageID: 1_278_455_344_230_334_865, gmailThreadID: 1_266_894_439_832_287_888)),
        ("(X-GM-LABELS (\\Inbox \"\\\\Sent\" Important \"Muy Importante\" +IMNews))",
         FetchAttributes(gmailLabels: ["\\Inbox", "\\Sent", "Important", "Muy Importante", "+IMNews"])),
        ("(X-GM-LABELS ())", FetchAttributes(gmailLabels: [])),
        ("(BODY[] NIL)", FetchAttributes(bodySections: ["": []])),
        ("(BODY[TEXT] \"hi\")", FetchAttributes(bodySections: ["TEXT": Array("hi".utf8)])),
        ("(BODY[1.2.MIME] \"x\")", FetchAttributes(bodySections: ["1.2.MIME": Array("x".utf8)])),
        ("(BODY[]<0> \"abc\")", FetchAttributes(bodySections: [BodySection("", origin: 0): Array("abc".utf8)])),
        ("(BODY[HEADER.FIELDS (From  to)] \"F\")", FetchAttributes(bodySections: ["HEADER.FIELDS (FROM TO)": Array("F".utf8)])),
        ("(RFC822.HEADER \"h\" RFC822.TEXT \"t\" RFC822 \"a\")",
         FetchAttributes(bodySections: ["HEADER": Array("h".utf8), "TEXT": Array("t".utf8), "": Array("a".utf8)])),
        ("(UID 5 EMAILID (M6d99ac3275bb4e) THREADID NIL SAVEDATE \"x\" BINARY[1] ~{2}\nab BINARY.SIZE[1] 2)",
         FetchAttributes(uid: 5)),
        ("(UID 7 FLAGS (\\Seen))", FetchAttributes(uid: 7, flags: ["\\Seen"])),
        ("(UID 7FLAGS (\\Seen))", FetchAttributes(uid: 7, flags: ["\\Seen"])),
        ("( UID  7 )", FetchAttributes(uid: 7)),
    ]

    @Test("parses FETCH data items", arguments: items)
    func parsesItems(items: String, expected: FetchAttributes) throws {
        #expect(try fetchAttributes("* 12 FETCH \(items)\n") == expected)
    }

    @Test("a section key built from the command matches the response")
    func sectionKeys() {
        #expect(BodySection("header.fields (from to)") == BodySection("HEADER.FIELDS ( FROM TO )"))
        #expect(BodySection("1.2", origin: 0).description == "[1.2]<0>")
    }

    static let dates: [(String, TimeInterval)] = [
        ("17-Jul-1996 02:44:25 -0700", 837_596_665),
        (" 7-Feb-2024 23:59:59 +0000", 1_707_350_399),
        ("7-Feb-2024 23:59:59 +0000", 1_707_350_399),
        ("07-feb-2024 23:59:59 +0130", 1_707_344_999),
        ("29-Feb-2000 00:00:00 +0000", 951_782_400),
    ]

    @Test("parses INTERNALDATE, with or without the padding space", arguments: dates)
    func internalDate(text: String, epoch: TimeInterval) throws {
        let attributes = try fetchAttributes("* 1 FETCH (INTERNALDATE \"\(text)\")\n")
        #expect(attributes?.internalDate == Date(timeIntervalSince1970: epoch))
    }

    @Test("parses an envelope with groups, routes and NIL fields")
    func envelope() throws {
        let line = """
            * 4 FETCH (ENVELOPE ("Thu, 15 Feb 2007 01:02:03 +0200" "=?utf-8?q?caf=C3=A9?=" \
            (("Real Name" NIL "user" "domain")) NIL () ((NIL NIL "group" NIL)(NIL NIL "g1" "d1.org")(NIL NIL NIL NIL)) \
            ((NIL "@route" "user" "domain")) "" "<reply@to.id>" "<msg@id>"))

            """
        let envelope = try #require(try fetchAttributes(line)?.envelope)
        #expect(envelope.date == "Thu, 15 Feb 2007 01:02:03 +0200")
        #expect(envelope.subject == "=?utf-8?q?caf=C3=A9?=")
        #expect(envelope.from == [IMAPAddress(name: "Real Name", mailbox: "user", host: "domain")])
        #expect(envelope.from.first?.address == "user@domain")
        #expect(envelope.sender.isEmpty && envelope.replyTo.isEmpty && envelope.bcc.isEmpty)
        #expect(envelope.to.count == 3)
        #expect(envelope.to[0].isGroupStart && envelope.to[2].isGroupEnd)
        #expect(envelope.cc == [IMAPAddress(adl: "@route", mailbox: "user", host: "domain")])
        #expect(envelope.inReplyTo == "<reply@to.id>")
        #expect(envelope.messageID == "<msg@id>")
    }

    @Test("a truncated envelope keeps the fields that were sent")
    func shortEnvelope() throws {
        let envelope = try fetchAttributes("* 1 FETCH (ENVELOPE (\"date\" \"subject\") UID 3)\n")?.envelope
        #expect(envelope == Envelope(date: "date", subject: "subject"))
    }

    static let failures: [(String, IMAPParseError.Kind)] = [
        ("* 1 FETCH\n", .incomplete),
        ("* 1 FETCH UID 4\n", .malformed),
        ("* 1 FETCH x\n", .malformed),
    ]

    @Test("refuses a FETCH without its item list", arguments: failures)
    func refusesMalformed(input: String, kind: IMAPParseError.Kind) {
        #expect(parseErrorKind(input) == kind)
    }

    static let damaged: [(String, FetchAttributes)] = [
        ("(UID 5 FLAGS (\\Seen)", FetchAttributes(uid: 5, flags: ["\\Seen"], malformed: [")"])),
        ("(UID x FLAGS (\\Seen))", FetchAttributes(flags: ["\\Seen"], malformed: ["UID"])),
        ("(INTERNALDATE \"not a date\" UID 9)", FetchAttributes(uid: 9, malformed: ["INTERNALDATE"])),
        ("(MODSEQ (x) UID 9)", FetchAttributes(uid: 9, malformed: ["MODSEQ"])),
        ("(FLAGS (\\Seen) BODY[] {99}\nshort UID 9)", FetchAttributes(uid: 9, flags: ["\\Seen"], malformed: ["BODY"])),
        ("(BODY[1 \"x\" UID 9)", FetchAttributes(uid: 9, malformed: ["BODY"])),
    ]

    @Test("a damaged item is named and the others survive", arguments: damaged)
    func damagedItems(items: String, expected: FetchAttributes) throws {
        #expect(try fetchAttributes("* 1 FETCH \(items)\n") == expected)
    }
}
