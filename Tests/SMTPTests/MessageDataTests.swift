import TestSupport
import Testing

@testable import SMTP

@Suite("message data: CRLF and dot-stuffing")
struct MessageDataTests {
    static let cases: [(String, String)] = [
        ("Hi\r\nbye\r\n", "Hi\r\nbye\r\n.\r\n"),
        ("Hi\nbye\n", "Hi\r\nbye\r\n.\r\n"),
        ("Hi\nbye", "Hi\r\nbye\r\n.\r\n"),
        ("Hi\rbye\r", "Hi\r\nbye\r\n.\r\n"),
        ("a\r\r\nb", "a\r\n\r\nb\r\n.\r\n"),
        ("a\n\nb", "a\r\n\r\nb\r\n.\r\n"),
        (".hidden\n", "..hidden\r\n.\r\n"),
        ("x\n.\ny\n", "x\r\n..\r\ny\r\n.\r\n"),
        ("x\r\n..two\r\n", "x\r\n...two\r\n.\r\n"),
        ("x\n.\n", "x\r\n..\r\n.\r\n"),
        ("a.b\n .c\n", "a.b\r\n .c\r\n.\r\n"),
        ("x\r\n.\r\n\r\nsmuggled", "x\r\n..\r\n\r\nsmuggled\r\n.\r\n"),
        ("x\n.\r\nMAIL FROM:<evil>\r\n", "x\r\n..\r\nMAIL FROM:<evil>\r\n.\r\n"),
        ("x\r.\rRCPT", "x\r\n..\r\nRCPT\r\n.\r\n"),
        (".", "..\r\n.\r\n"),
        ("", ".\r\n"),
        ("\n", "\r\n.\r\n"),
    ]

    @Test("line breaks become CRLF, leading dots are doubled, CRLF.CRLF ends the data", arguments: cases)
    func encoding(input: String, expected: String) {
        let data = MessageData(Array(input.utf8))
        #expect(String(decoding: data.wire, as: UTF8.self) == expected)
    }

    @Test("the size counts CRLFs but neither stuffing nor the terminator")
    func size() {
        #expect(MessageData(Array("ab\ncd".utf8)).size == 8)
        #expect(MessageData(Array(".a\r\n".utf8)).size == 4)
        #expect(MessageData([]).size == 0)
    }

    @Test("8-bit bytes are noticed, in headers or body")
    func eightBit() {
        #expect(!MessageData(Array("Subject: plain\r\n\r\nascii\r\n".utf8)).hasEightBitBytes)
        #expect(MessageData(Array("Subject: caf\u{E9}\r\n\r\n".utf8)).hasEightBitBytes)
        #expect(MessageData([0x41, 0xFF]).hasEightBitBytes)
    }

    @Test("a 5 MB message is encoded quickly and exactly")
    func large() throws {
        let line = Array(".starts with a dot and is long enough to matter\n".utf8)
        let input = Array(Array(repeating: line, count: 100_000).joined())
        var data: MessageData?
        let elapsed = ThreadCPUClock.measure { data = MessageData(input) }
        let encoded = try #require(data)
        #expect(encoded.wire.count == input.count + 2 * 100_000 + 3)
        #expect(encoded.size == input.count + 100_000)
        #expect(elapsed < .seconds(20), "quadratic work would take minutes; \(elapsed) here")
    }
}
