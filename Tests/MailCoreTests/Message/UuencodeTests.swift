import Testing
@testable import MailCore

/// Parts sent with `Content-Transfer-Encoding: x-uuencode` decode as Python's `email`
/// decodes them (the attachment parity check found them served still encoded).
@Suite("uuencode decoding")
struct UuencodeTests {
    private static func decode(_ text: String, encoding: String = "x-uuencode") -> String {
        String(decoding: TransferEncoding.decode(Array(text.utf8)[...], encoding: encoding), as: UTF8.self)
    }

    @Test("a begin line, data lines and end decode to the file's bytes, under every name",
          arguments: ["x-uuencode", "uuencode", "uue", "x-uue"])
    func decodes(encoding: String) {
        let part = "begin 644 hello.txt\r\n82&5L;&\\L('5U96YC;V1E9\"!W;W)L9\"$*\r\n`\r\nend\r\n"
        #expect(Self.decode(part, encoding: encoding) == "Hello, uuencoded world!\n")
        #expect(TransferEncoding.decodedCount(Array(part.utf8)[...], encoding: encoding) == 24)
        #expect(!TransferEncoding.isIdentity(encoding))
    }

    @Test("text before begin is skipped; a missing end, an empty line or a short line are tolerated")
    func lenient() {
        #expect(Self.decode("preamble\nbegin 600 x\n\"2&D\n") == "Hi")
        #expect(Self.decode("begin 600 x\n\"2&D\n\n\"2&D\nend\n") == "Hi")
        #expect(Self.decode("begin 600 x\n\"2\nend\n") == "H\0")
    }

    @Test("a part without a begin line is served as it is")
    func notUuencoded() {
        #expect(Self.decode("just text\nbegin x\n") == "just text\nbegin x\n")
    }

    @Test("a uuencoded attachment of a message is listed with its decoded size and served decoded")
    func inMessage() {
        let raw = Array(("Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nbody\n--b\n"
            + "Content-Type: application/octet-stream; name=hi.txt\nContent-Transfer-Encoding: x-uuencode\n\n"
            + "begin 644 hi.txt\n\"2&D\n`\nend\n--b--\n").utf8)
        let attachment = MessageParser.parse(raw).attachments.first
        #expect(attachment?.size == 2)
        #expect(MessageParser.decodedContent(ofPart: "2", in: raw) == Array("Hi".utf8))
    }
}
