import Foundation
import Testing
@testable import MailCore

@Suite("MessageParser fills every field")
struct MessageParserTests {
    @Test("envelope fields are decoded")
    func envelope() {
        let message = MessageParser.parse(MessageFixtures.nested)
        #expect(message.subject == "Nested ✓")
        #expect(message.from == [EmailAddress(name: "Alice", address: "alice@example.com")])
        #expect(message.to == [EmailAddress(name: "Bob", address: "bob@example.com")])
        #expect(message.messageID == "nested@example.com")
        #expect(message.date == DateParserTests.instant(2026, 11, 21, 14, 32, 0, offsetMinutes: 60))
        #expect(message.header("content-type")?.hasPrefix("multipart/mixed") == true)
    }

    @Test("bodies are the first plain and html parts outside attachments")
    func bodies() {
        let message = MessageParser.parse(MessageFixtures.nested)
        #expect(message.bodyPlain == "First text")
        #expect(message.bodyHTML == "<p>alt html</p>")
        #expect(message.bodyTruncated == false)
    }

    @Test("attachments: encapsulated messages whole, non-text parts, with decoded sizes")
    func attachments() {
        let message = MessageParser.parse(MessageFixtures.nested)
        #expect(message.attachments == [
            AttachmentInfo(partID: "3", filename: nil, mimeType: "message/rfc822", encoding: "7bit",
                           size: 220, isInline: false, contentID: nil),
            AttachmentInfo(partID: "4", filename: nil, mimeType: "message/rfc822", encoding: "7bit",
                           size: 30, isInline: false, contentID: nil),
            AttachmentInfo(partID: "5", filename: "dot.png", mimeType: "image/png", encoding: "base64",
                           size: 8, isInline: true, contentID: "dot@example.com"),
        ])
    }

    @Test("decodedContent serves any part by number, including inside message/rfc822")
    func decodedContent() {
        let raw = MessageFixtures.nested
        #expect(MessageParser.decodedContent(ofPart: "5", in: raw) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(MessageParser.decodedContent(ofPart: "3.2", in: raw) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A])
        #expect(MessageParser.decodedContent(ofPart: "4.1", in: raw) == Array("single body".utf8))
        #expect(MessageParser.decodedContent(ofPart: "9", in: raw) == nil)
    }

    @Test("message ids: brackets, lists, garbage")
    func ids() {
        let message = MessageParser.parse(MessageFixtures.crlf([
            "Message-ID: no-brackets@example.com",
            "In-Reply-To: Your message of Monday <parent@example.com>",
            "References: <root@example.com>\r\n <parent@example.com> (comment)",
            "", "",
        ]))
        #expect(message.messageID == "no-brackets@example.com")
        #expect(message.inReplyTo == ["parent@example.com"])
        #expect(message.references == ["root@example.com", "parent@example.com"])
    }

    @Test("messageID(ofHeader:) gives parse's Message-ID for every corpus message and the fixtures")
    func headerOnlyMessageID() {
        let raws = CorpusFiles.allMessageFiles().map(CorpusFiles.bytes) + [
            MessageFixtures.nested,
            MessageFixtures.crlf(["From here on", "Message-ID: <a@b>", "", "body"]),
            MessageFixtures.crlf(["Subject: no id", "", "Message-ID: <in-body@example.com>"]),
            MessageFixtures.crlf(["message-id:   <first@example.com>", "Message-Id: <second@example.com>", "", ""]),
            Array("From sender Mon Jan 1 00:00:00 2024\nMessage-ID: <mbox@example.com>\n\nbody".utf8),
            [],
        ]
        for raw in raws {
            let header = Array(raw[..<MessageParser.headerBlockEnd(raw)])
            #expect(MessageParser.messageID(ofHeader: header) == MessageParser.parse(raw).messageID)
            #expect(MessageParser.messageID(ofHeader: raw) == MessageParser.parse(raw).messageID)
        }
        #expect(MessageParser.messageID(ofHeader: MessageFixtures.crlf(["Message-ID: <x@y>", "", ""])) == "x@y")
    }

    @Test("a part with a file name or attachment disposition is no body")
    func textAttachment() {
        let message = MessageParser.parse(MessageFixtures.crlf([
            "Content-Type: multipart/mixed; boundary=b", "",
            "--b", "Content-Type: text/plain; name=notes.txt", "", "notes",
            "--b", "Content-Type: text/html", "Content-Disposition: attachment", "", "<b>x</b>",
            "--b", "Content-Type: text/plain; charset=iso-8859-1", "Content-Transfer-Encoding: quoted-printable", "",
            "caf=E9 =", "au lait",
            "--b--",
        ]))
        #expect(message.bodyPlain == "café au lait")
        #expect(message.bodyHTML == nil)
        #expect(message.attachments.map(\.partID) == ["1", "2"])
        #expect(message.attachments.map(\.filename) == ["notes.txt", nil])
    }

    @Test("a part whose Content-Type has no subtype but names a file is an application/octet-stream attachment")
    func invalidTypeWithName() {
        let message = MessageParser.parse(MessageFixtures.crlf([
            "Content-Type: multipart/mixed; boundary=b", "",
            "--b", "Content-Type: text/plain", "", "hello",
            "--b", "Content-Type: application-x-gzip; name=logs.gz", "Content-Transfer-Encoding: base64", "", "H4sIAAAAAAAAAwMAAAAAAAAAAAA=",
            "--b", "Content-Type: garbage", "", "plain text after all",
            "--b--",
        ]))
        #expect(message.bodyPlain?.hasPrefix("hello") == true)
        #expect(message.attachments.map(\.filename) == ["logs.gz"])
        #expect(message.attachments.map(\.mimeType) == ["application/octet-stream"])
    }

    @Test("bodies get LF line ends and are decoded from their charset")
    func bodyDecoding() {
        let message = MessageParser.parse(MessageFixtures.crlf([
            "Content-Type: text/plain; charset=koi8-r", "Content-Transfer-Encoding: base64", "",
            "8NLJ18XUDQrtydI=",
        ]))
        #expect(message.bodyPlain == "Привет\nМир")
    }

    @Test("a body over maxBodyBytes is cut with a marker")
    func truncation() {
        let line = String(repeating: "a", count: 1023) + "\n"
        let body = String(repeating: line, count: MessageParser.maxBodyBytes / 1024 + 10)
        let message = MessageParser.parse(Array("Subject: big\n\n\(body)".utf8))
        #expect(message.bodyTruncated)
        let plain = message.bodyPlain ?? ""
        #expect(plain.hasSuffix(MessageParser.truncationMarker))
        #expect(plain.utf8.count == MessageParser.maxBodyBytes + MessageParser.truncationMarker.utf8.count)
    }

    @Test("a message without header is all body; an empty message is empty")
    func degenerate() {
        let headerless = MessageParser.parse(Array("just some text\n".utf8))
        #expect(headerless.headers.isEmpty)
        #expect(headerless.bodyPlain == "just some text\n")
        let empty = MessageParser.parse([])
        #expect(empty.subject == "" && empty.bodyPlain == "" && empty.attachments.isEmpty)
    }
}
