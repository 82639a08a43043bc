import Testing
@testable import IMAP

@Suite("ResponseFramer")
struct ResponseFramerTests {
    static let session = wire("""
        * OK [CAPABILITY IMAP4rev1 LITERAL+] Dovecot ready.
        * 2 FETCH (UID 8 BODY[] \(literal("Subject: hi\n\nbody {5}\n")) FLAGS (\\Seen))
        * LIST () "/" \(literal("Entw&APw-rfe"))
        + Ready
        A1 OK Fetch completed (0.001 + 0.000 secs).

        """)

    @Test("cuts a session into responses, whatever the chunk size", arguments: [1, 2, 3, 7, 64, 100_000])
    func chunking(chunkSize: Int) throws {
        let units = try frame(Self.session, chunkSize: chunkSize)
        #expect(units.count == 5)
        #expect(units.map { $0.count }.reduce(0, +) == Self.session.count)
        #expect(units.allSatisfy { $0.suffix(2) == [13, 10] })
    }

    @Test("keeps literal bytes in place, including CRLF and braces")
    func literalsInPlace() throws {
        let units = try frame(Self.session)
        #expect(units[1].firstRange(of: Array("body {5}\r\n FLAGS".utf8)) != nil)
    }

    @Test("a {n} at the end of a status line is text, not a literal")
    func statusTextIsRaw() throws {
        let units = try frame(wire("* OK [ALERT] quota {123}\nA2 NO failed {5}\n+ send {9}\n"))
        #expect(units.count == 3)
    }

    @Test("accepts literal8, non-synchronising markers and bare LF line ends")
    func literalVariants() throws {
        let bytes = Array("* 1 FETCH (BINARY[1] ~{3}\r\nabc BODY[2] {2+}\r\nxy)\n* 3 EXISTS\n".utf8)
        let units = try frame(bytes, chunkSize: 5)
        #expect(units.count == 2)
        #expect(units[1] == Array("* 3 EXISTS\n".utf8))
    }

    @Test("skips empty lines")
    func emptyLines() throws {
        #expect(try frame(wire("\n\n* 1 EXISTS\n\n")).count == 1)
    }

    @Test("reports need-more-bytes until the response is complete")
    func needMoreBytes() throws {
        var framer = ResponseFramer()
        framer.append(Array("* 1 FETCH (BODY[] {10}\r\n12345".utf8))
        #expect(try framer.next() == .needMoreBytes)
        framer.append(Array("67890)\r".utf8))
        #expect(try framer.next() == .needMoreBytes)
        framer.append([10])
        guard case .response = try framer.next() else {
            Issue.record("expected a response")
            return
        }
        #expect(try framer.next() == .needMoreBytes)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("a line break inside a quoted string continues the response")
    func lineBreakInQuotedString() throws {
        let bytes = wire("* 1 FETCH (ENVELOPE (NIL \"two\nlines\" NIL NIL NIL NIL NIL NIL NIL NIL) UID 4)\nA1 OK done\n")
        let units = try frame(bytes, chunkSize: 3)
        #expect(units.count == 2)
    }

    @Test("an unbalanced quote does not swallow the next response")
    func unbalancedQuote() throws {
        let bytes = wire("* 1 FETCH (FLAGS (odd\"flag))\n* 2 FETCH (FLAGS (\\Seen))\nA1 OK done\n")
        #expect(try frame(bytes).count == 3)
    }

    @Test("refuses a literal above the limit")
    func literalLimit() {
        let limits = ParserLimits(maxLiteralSize: 100)
        #expect(throws: IMAPParseError.self) {
            try frame(wire("* 1 FETCH (BODY[] {101}\n"), limits: limits)
        }
    }

    @Test("refuses an over-long line before its end arrives")
    func lineLimit() {
        let limits = ParserLimits(maxLineLength: 1000)
        let bytes = Array("* 1 FETCH (FLAGS (".utf8) + Array(repeating: UInt8(ascii: "a"), count: 5000)
        #expect(throws: IMAPParseError.self) { try frame(bytes, chunkSize: 512, limits: limits) }
    }

    @Test("a huge SEARCH line is bounded only by the response limit")
    func hugeSearch() throws {
        let limits = ParserLimits(maxLineLength: 1000, maxResponseSize: 1 << 20)
        let numbers = (1...20_000).map(String.init).joined(separator: " ")
        let units = try frame(wire("* SEARCH \(numbers)\nA1 OK\n"), chunkSize: 4096, limits: limits)
        #expect(units.count == 2)
        let tooBig = ParserLimits(maxLineLength: 1000, maxResponseSize: 50_000)
        #expect(throws: IMAPParseError.self) {
            try frame(wire("* SEARCH \(numbers)\n"), chunkSize: 4096, limits: tooBig)
        }
    }

    @Test("refuses a literal length with too many digits")
    func absurdLiteralLength() {
        #expect(throws: IMAPParseError.self) { try frame(wire("* 1 FETCH (BODY[] {99999999999999999999}\n")) }
    }
}
