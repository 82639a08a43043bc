import Foundation
import TestSupport
import Testing
@testable import MailCore

/// Inputs built to break or slow a parser: each must parse, quickly.
@Suite("Hostile input parses without crash and quickly")
struct HostileInputTests {
    static func repeated(_ text: String, _ count: Int) -> String {
        String(repeating: text, count: count)
    }

    static let inputs: [(String, [UInt8])] = [
        ("empty", []),
        ("only CR LF", Array(repeated("\r\n", 1000).utf8)),
        ("NUL bytes everywhere", [UInt8](repeating: 0, count: 100_000)),
        ("NUL bytes in header fields",
         Array("Subject: a\0b\r\nFrom: \0<a@b>\r\nContent-Type: text/plain; charset=\0\r\n\r\n\0body".utf8)),
        ("invalid UTF-8", [0xFF, 0xFE, 0xC3, 0x28, 0xE2, 0x28, 0xA1, 0x0A, 0x0A, 0xF0, 0x90, 0x28, 0xBC]),
        ("2 MB header line", Array(("Subject: " + repeated("x", 2 << 20) + "\r\n\r\nbody").utf8)),
        ("2 MB of folds", Array(("Subject: x" + repeated("\r\n y", 700_000) + "\r\n\r\n").utf8)),
        ("50k header fields", Array((repeated("X-A: b\r\n", 50_000) + "\r\nbody").utf8)),
        ("RFC 2047 garbage", Array(("Subject: " + repeated("=?utf-8?q?", 20_000) + repeated("=?x?b?", 20_000)
            + "=?utf-8?b?" + repeated("%", 5000) + "?=\r\n\r\n").utf8)),
        ("unterminated encoded words", Array(("Subject: " + repeated("=?a?q?a", 30_000) + "\r\nFrom: "
            + repeated("=?a?q?a", 30_000) + " <a@b>\r\n\r\n").utf8)),
        ("unterminated comments and quotes",
         Array(("From: " + repeated("(", 50_000) + repeated("\"", 50_001) + repeated("<", 50_000) + "\r\n"
            + "Date: " + repeated("(", 50_000) + "\r\n\r\n").utf8)),
        ("deeply nested multiparts", Array((repeated("Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n", 10_000)
            + "\r\nend").utf8)),
        ("deeply nested rfc822", Array((repeated("Content-Type: message/rfc822\r\n\r\n", 10_000) + "x").utf8)),
        ("unterminated boundary", Array(("Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\n"
            + repeated("no end in sight\r\n", 100_000)).utf8)),
        ("many empty parts", Array(("Content-Type: multipart/mixed; boundary=b\r\n\r\n" + repeated("--b\r\n", 200_000)).utf8)),
        ("huge base64", Array(("Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + repeated("QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB\r\n", 60_000)).utf8)),
        ("huge base64 text body", Array(("Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + repeated("QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB\r\n", 250_000)).utf8)),
        ("huge parameter list", Array(("Content-Type: text/plain; " + repeated("a*1*=%41; ", 10_000)
            + repeated("b*99999=x; ", 10_000) + "\r\n\r\n").utf8)),
        ("huge address list", Array(("To: " + repeated("a@b, ", 100_000) + "\r\n\r\n").utf8)),
        ("huge html", Array(("Content-Type: text/html\r\n\r\n" + repeated("<p>&amp;&#x41;<b", 60_000)).utf8)),
        ("truncated mid-header", Array("Subject: trunc\r\nContent-Type: multipart/mixed; bound".utf8)),
        ("truncated mid-part", Array("Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: te".utf8)),
    ]

    /// Generous enough for a loaded machine, tight enough to catch quadratic
    /// work (debug builds run these loops about twenty times slower).
    static let budget: Duration = {
        #if DEBUG
        return .seconds(20)
        #else
        return .seconds(2)
        #endif
    }()

    @Test("each hostile input parses quickly", arguments: inputs.map(\.0))
    func parsesQuickly(name: String) throws {
        let raw = try #require(Self.inputs.first { $0.0 == name }?.1)
        var message = ParsedMessage()
        let elapsed = ThreadCPUClock.measure {
            message = MessageParser.parse(raw)
            _ = message.bodyHTML.map(HTMLText.plainText(fromHTML:))
            _ = Snippet.make(plain: message.bodyPlain, html: message.bodyHTML, fallback: message.subject)
        }
        checkInvariants(message, raw: raw, name: name)
        #expect(elapsed < Self.budget, "\(name) took \(elapsed)")
    }
}
