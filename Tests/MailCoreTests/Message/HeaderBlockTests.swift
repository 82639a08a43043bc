import Foundation
import Testing
@testable import MailCore

@Suite("Header block splitting and unfolding")
struct HeaderBlockTests {
    private static func parse(_ text: String, isMessage: Bool = true) -> HeaderBlock {
        HeaderBlock.parse(Array(text.utf8)[...], isMessage: isMessage)
    }

    @Test("splits at the first empty line, CR LF or LF", arguments: [
        ("A: 1\r\nB: 2\r\n\r\nbody", 14),
        ("A: 1\nB: 2\n\nbody", 11),
        ("A: 1\r\nB: 2\n\r\nbody", 13),
    ])
    func splitsAtEmptyLine(text: String, bodyStart: Int) {
        let block = Self.parse(text)
        #expect(block.fields.map(\.name) == ["A", "B"])
        #expect(block.bodyStart == bodyStart)
    }

    @Test("empty and blank-only lines before a message's header are skipped when a field follows", arguments: [
        "\r\nFrom: Ann <ann@example.org>\r\nSubject: Hi\r\n\r\nbody",
        " \t\r\n\r\nFrom: Ann <ann@example.org>\r\nSubject: Hi\r\n\r\nbody",
        "\n\n\nFrom: Ann <ann@example.org>\nSubject: Hi\n\nbody",
    ])
    func leadingBlankLines(text: String) throws {
        let block = Self.parse(text)
        #expect(block.fields.map(\.name) == ["From", "Subject"])
        #expect(Array(text.utf8)[block.bodyStart...] == Array("body".utf8)[...])
        let parsed = MessageParser.parse(Array(text.utf8))
        #expect(parsed.subject == "Hi")
    }

    @Test("blank lines followed by text that is no field: an empty header, the text is body; parts are left alone")
    func leadingBlankLinesWithoutHeader() {
        #expect(Self.parse("\r\nHello there\r\n").fields.isEmpty)
        #expect(Self.parse("\r\nHello there\r\n").bodyStart == 2)
        #expect(Self.parse("\r\nContent-Type: text/plain\r\n\r\nx", isMessage: false).fields.isEmpty)
    }

    @Test("a header without an empty line runs to the end")
    func missingEmptyLine() {
        let text = "Subject: no body\r\nFrom: a@b"
        let block = Self.parse(text)
        #expect(block.fields.count == 2)
        #expect(block.bodyStart == text.utf8.count)
        #expect(MessageParser.headerBlockEnd(Array(text.utf8)) == text.utf8.count)
    }

    @Test("unfolds continuation lines and trims the value")
    func unfolds() {
        let block = Self.parse("Subject:  a\r\n\tb\r\n c \r\nX-Empty:\r\n\r\n")
        #expect(block.value("subject") == "a\tb c")
        #expect(block.value("x-empty") == "")
    }

    @Test("a line of blanks inside the header is a fold, not the end")
    func blankLineIsFold() {
        let block = Self.parse("To: a@b,\r\n \r\n c@d\r\nSubject: s\r\n\r\nbody")
        #expect(block.value("to") == "a@b,  c@d")
        #expect(block.value("subject") == "s")
    }

    @Test("skips lines that are not fields in a message header, keeps going")
    func skipsGarbage() {
        let block = Self.parse("From: a@b\r\nthis is garbage\r\n: no name\r\nSubject: kept\r\n\r\n")
        #expect(block.fields.map(\.name) == ["From", "Subject"])
    }

    @Test("a part header ends at a line that is not a field")
    func partHeaderEndsAtGarbage() {
        let text = "Content-Type: text/plain\r\n--boundary\r\nmore"
        let block = Self.parse(text, isMessage: false)
        #expect(block.fields.map(\.name) == ["Content-Type"])
        #expect(block.bodyStart == 26)
    }

    @Test("a first line that is not a field means no header")
    func noHeader() {
        let block = Self.parse("Hello there, this is text.\r\nSecond: line\r\n")
        #expect(block.fields.isEmpty)
        #expect(block.bodyStart == 0)
    }

    @Test("an mbox From_ line is skipped only in a message")
    func mboxFromLine() {
        let text = "From someone@example.com Mon Jan  1 00:00:00 2001\nSubject: s\n\nbody"
        #expect(Self.parse(text).value("subject") == "s")
        #expect(Self.parse(text, isMessage: false).fields.isEmpty)
    }

    @Test("accepts blanks before the colon (obsolete syntax)")
    func blanksBeforeColon() {
        #expect(Self.parse("Subject : obsolete\n\n").value("subject") == "obsolete")
    }

    @Test("raw 8-bit text is UTF-8 when valid, else Latin-1; NUL bytes are dropped")
    func eightBitAndNUL() {
        let utf8 = Array("Subject: Grüße\n\n".utf8)
        #expect(HeaderBlock.parse(utf8[...]).value("subject") == "Grüße")
        let latin1: [UInt8] = Array("Subject: Gr".utf8) + [0xFC, 0xDF, 0x65, 0x00, 0x21] + [0x0A, 0x0A]
        #expect(HeaderBlock.parse(latin1[...]).value("subject") == "Grüße!")
    }

    @Test("a 2 MB header line is cut at the field cap, quickly")
    func hugeLine() {
        var raw = Array("Subject: ".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 2 << 20)
        raw += Array("\r\nFrom: a@b\r\n\r\nbody".utf8)
        let block = HeaderBlock.parse(raw[...], isMessage: true)
        // The blank after the colon counts toward the cap, then is trimmed.
        #expect(block.value("subject")?.utf8.count == HeaderBlock.maxFieldBytes - 1)
        #expect(block.bodyStart == raw.count - 4)
        // The From field lies beyond the inspected megabyte: not collected, but the body is found.
        #expect(block.value("from") == nil)
    }
}
