import Foundation
import Testing
@testable import MailCore

@Suite("MIME tree and IMAP section numbers")
struct MIMETreeTests {
    private static func tree(_ raw: [UInt8]) -> MIMEPart {
        MessageParser.structure(raw)
    }

    /// Every part as "number type", depth first.
    private static func outline(_ part: MIMEPart) -> [String] {
        ["\(part.partID) \(part.contentType.mimeType)"] + part.children.flatMap(outline)
    }

    @Test("numbers parts as RFC 3501 FETCH BODY[section] does")
    func imapNumbers() {
        #expect(Self.outline(Self.tree(MessageFixtures.nested)) == [
            " multipart/mixed",
            "1 text/plain",
            "2 multipart/alternative", "2.1 text/plain", "2.2 text/html",
            "3 message/rfc822", "3 multipart/mixed", "3.1 text/plain", "3.2 image/png",
            "4 message/rfc822", "4.1 text/plain",
            "5 image/png",
        ])
    }

    @Test("a single-part message's body is part 1, with a default type")
    func singlePart() {
        let root = Self.tree(MessageFixtures.crlf(["Subject: x", "", "hello"]))
        #expect(root.partID == "1")
        #expect(root.contentType == .defaultPlain)
    }

    @Test("an invalid Content-Type (no subtype) means the default text/plain")
    func invalidType() {
        #expect(Self.outline(Self.tree(MessageFixtures.crlf(["Content-Type: text", "", "x"]))) == ["1 text/plain"])
        #expect(Self.outline(Self.tree(MessageFixtures.crlf(["Content-Type: /html", "", "x"]))) == ["1 text/plain"])
    }

    @Test("a missing close delimiter ends the last part at the end")
    func missingClose() {
        let root = Self.tree(MessageFixtures.crlf([
            "Content-Type: multipart/mixed; boundary=b", "", "--b", "", "one", "--b", "", "two", "",
        ]))
        #expect(root.children.count == 2)
        #expect(MessageParser.decodedContent(ofPart: "2", in: MessageFixtures.crlf([
            "Content-Type: multipart/mixed; boundary=b", "", "--b", "", "one", "--b", "", "two",
        ])) == Array("two".utf8))
    }

    @Test("multipart/digest children default to message/rfc822")
    func digestDefault() {
        let root = Self.tree(MessageFixtures.crlf([
            "Content-Type: multipart/digest; boundary=d", "", "--d", "", "Subject: one", "", "body", "--d--",
        ]))
        #expect(Self.outline(root) == [" multipart/digest", "1 message/rfc822", "1.1 text/plain"])
    }

    @Test("a multipart without a usable boundary shows its body as text")
    func noBoundary() {
        let root = Self.tree(MessageFixtures.crlf(["Content-Type: multipart/mixed", "", "just text"]))
        #expect(Self.outline(root) == ["1 text/plain"])
    }

    @Test("an inner boundary extending the outer one stays apart")
    func boundaryExtension() {
        let root = Self.tree(MessageFixtures.crlf([
            "Content-Type: multipart/mixed; boundary=b", "", "--b",
            "Content-Type: multipart/alternative; boundary=b-1", "", "--b-1", "", "x", "--b-1--", "--b", "", "y", "--b--",
        ]))
        #expect(Self.outline(root) == [" multipart/mixed", "1 multipart/alternative", "1.1 text/plain", "2 text/plain"])
    }

    @Test("nesting deeper than the cap is left unparsed")
    func depthCap() {
        var lines: [String] = []
        for level in 0..<100 { lines += ["Content-Type: multipart/mixed; boundary=b\(level)", "", "--b\(level)"] }
        lines += ["", "deep"]
        let root = Self.tree(MessageFixtures.crlf(lines))
        var depth = 0
        var part = root
        while let child = part.children.first {
            depth += 1
            part = child
        }
        #expect(depth == MIMETree.maxDepth)
    }
}
