import Foundation
import MailCore
import Testing
import TestSupport
@testable import MessageText

@Suite("hostile and huge messages")
struct LimitsTests {
    @Test("a text body above 10 MB is cut, with a line saying so")
    func hugePlainBody() {
        let line = String(repeating: "invoice ", count: 16) + "\r\n"
        let body = String(repeating: line, count: 11 * 1024 * 1024 / line.utf8.count)
        let text = Rendering.text(headers: ["Content-Type: text/plain"], body: body)
        #expect(text.utf8.count <= MessageParser.maxBodyBytes + 1024)
        #expect(text.hasSuffix("[mailfs: body truncated at 10 MB]\n"))
    }

    @Test("an HTML body above 10 MB is cut, with a line saying so")
    func hugeHTMLBody() {
        let paragraph = "<p>" + String(repeating: "word ", count: 40) + "</p>\r\n"
        let body = String(repeating: paragraph, count: 11 * 1024 * 1024 / paragraph.utf8.count)
        let text = Rendering.text(headers: ["Content-Type: text/html"], body: body)
        #expect(text.utf8.count <= MessageParser.maxBodyBytes)
        #expect(text.hasSuffix("[mailfs: body truncated at 10 MB]\n"))
    }

    @Test("several large parts stop at 10 MB of text in all")
    func manyLargeParts() {
        let part = String(repeating: "budget line\r\n", count: 4 * 1024 * 1024 / 13)
        let body = Rendering.multipart(Array(repeating: (["Content-Type: text/plain"], part), count: 4))
        let text = Rendering.text(headers: ["Content-Type: multipart/mixed; boundary=b"], body: body)
        #expect(text.utf8.count <= BodyRenderer.maxTextBytes + 1024)
        #expect(text.hasSuffix("[mailfs: the rest of this message's text is cut at 10 MB]\n"))
    }

    @Test("deeply nested HTML costs no stack and keeps its text")
    func deepHTML() {
        let depth = 100_000
        let html = String(repeating: "<div><blockquote><ul><li>", count: depth) + "deep words"
        let text = Rendering.html(html)
        #expect(text.contains("deep words"))
        #expect(text.utf8.count < 10_000)
    }

    @Test("attached messages nested past the limit are not followed")
    func deepAttachedMessages() {
        var message = "Subject: bottom\r\n\r\nbottom words\r\n"
        for level in 0..<40 {
            message = "Subject: level \(level)\r\nContent-Type: message/rfc822\r\n\r\n" + message
        }
        let text = BodyRenderer.text(ofMessage: Array(message.utf8))
        #expect(text.contains("[attached message nested too deep: read it from the .eml]"))
        #expect(!text.contains("bottom words"))
    }

    @Test("random and mutated messages render without crash, hang or runaway output")
    func robustness() throws {
        var generator = SeededGenerator(state: 45)
        let seeds = Self.seedMessages()
        let clock = ContinuousClock()
        var slowest = Duration.zero
        for round in 0..<3000 {
            var bytes = seeds[round % seeds.count]
            if round % 10 == 9 {
                bytes = (0..<Int.random(in: 0...2000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                Self.mutate(&bytes, using: &generator)
            }
            let started = clock.now
            let text = MessageRenderer.render(ConversationMessage(raw: bytes, fileName: "m.eml"))
            slowest = max(slowest, clock.now - started)
            #expect(text.utf8.count <= 4 * bytes.count + 4096, "round \(round): \(text.utf8.count) bytes from \(bytes.count)")
        }
        #expect(slowest < .seconds(2), "slowest message: \(slowest)")
    }

    static func seedMessages() -> [[UInt8]] {
        let html = "<html><body><table><tr><td><a href=\"https://x.test/a\">link <img src=a alt=b></a></td></tr></table>"
            + "<ul><li>one<li>two</ul><blockquote>q</blockquote><pre>p  re</pre><img width=1 height=1 src=t></body></html>"
        let alternative = Rendering.multipart([(["Content-Type: text/plain; format=flowed; delsp=yes"], "flowed \r\ntext"),
                                               (["Content-Type: text/html"], html)])
        let forwarded = Rendering.multipart([(["Content-Type: text/plain"], "note"),
                                             (["Content-Type: message/rfc822"], "Subject: in\r\nContent-Type: text/html\r\n\r\n" + html)])
        return [
            TestMessage(headers: ["Content-Type: text/html; charset=utf-8"], body: html).bytes,
            TestMessage(headers: ["Content-Type: multipart/alternative; boundary=b"], body: alternative).bytes,
            TestMessage(headers: ["Content-Type: multipart/mixed; boundary=b"], body: forwarded).bytes,
            TestMessage(headers: ["Content-Type: text/plain; charset=iso-2022-jp"], body: "\u{1B}$B$3$s\u{1B}(B").bytes,
            TestMessage(headers: ["Content-Transfer-Encoding: quoted-printable"], body: "soft=\r\nbreak =E2=80=94").bytes,
        ]
    }

    /// Flips, inserts, deletes and duplicates bytes, or splices in markup and MIME syntax.
    static func mutate(_ bytes: inout [UInt8], using generator: inout SeededGenerator) {
        let fragments = ["<", ">", "</", "<!--", "-->", "&", "&#", "\r\n--b\r\n", "=", "=\r\n", "<table>", "<li>",
                         "<a href=", "\u{1B}", "\0", "<![CDATA[", "<script>", "<pre>", "Content-Type: message/rfc822\r\n\r\n"]
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &generator)
            case 1: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
            case 2 where !bytes.isEmpty: bytes.remove(at: position)
            case 3: bytes.insert(contentsOf: Array(fragments.randomElement(using: &generator)!.utf8), at: position)
            default:
                let end = min(bytes.count, position + Int.random(in: 1...64, using: &generator))
                bytes.insert(contentsOf: Array(bytes[position..<end]), at: end)
            }
        }
    }
}
