import Foundation
import Testing
@testable import MailCore

/// Header injection: nothing in a file may make a new header line appear in
/// what we send, and Bcc addresses never leak. Encoded words hiding a line
/// break are refused (not mended); raw CRs are refused.
@Suite("Outgoing: header injection attempts")
struct OutgoingInjectionTests {
    typealias Fixtures = OutgoingFixtures

    @Test("an encoded word that decodes to a line break is refused", arguments: [
        ("Subject: =?utf-8?q?x=0D=0ABcc:_evil@example.org?=", "Subject"),
        ("Subject: =?UTF-8?Q?x=0ABcc:_evil@example.org?=", "Subject"),
        ("Subject: hi =?utf-8?b?eA0KQmNjOiBldmlsQGV4YW1wbGUub3Jn?=", "Subject"),
        ("Subject: =?iso-8859-1?q?a=0Db?=", "Subject"),
        ("Subject: =?utf-8?q?nul=00?=", "Subject"),
        ("X-Mailer: =?utf-8?q?x=0D=0AX-Evil:_1?=", "X-Mailer"),
        ("Cc: \"=?utf-8?q?a=0D=0ABcc:_x@example.org?=\" <c@example.org>", "Cc"),
        ("Reply-To: =?utf-8?q?a=0A?= <r@example.org>", "Reply-To"),
        ("Bcc: =?utf-8?q?a=0A?= <r@example.org>", "Bcc"),
    ])
    func encodedLineBreak(line: String, field: String) {
        let rejection = Fixtures.rejection("To: b@example.org\n\(line)\n\nbody\n")
        #expect(rejection == .headerInjection(field: field))
        #expect(rejection?.reason.contains("header injection") == true)
    }

    @Test("a raw carriage return inside a header is refused", arguments: [
        "Subject: a\rBcc: evil@example.org", "Subject: a\r\r\nBcc: evil@example.org", "To: b@example.org\rBcc: x@y.org",
    ])
    func rawCarriageReturn(line: String) {
        #expect(Fixtures.rejection("To: c@example.org\n\(line)\n\nbody\n") == .bareCarriageReturn(line: 2))
    }

    @Test("a continuation line that looks like a field stays part of its field")
    func continuationLooksLikeField() throws {
        let message = try #require(Fixtures.prepared("To: b@example.org\nSubject: hello\n Bcc: evil@example.org\n\nx"))
        let parsed = MessageParser.parse(message.data)
        #expect(message.recipients == ["b@example.org"])
        #expect(parsed.bcc.isEmpty && parsed.subject == "hello Bcc: evil@example.org")
    }

    @Test("encoded words without line breaks are fine, even with specials")
    func harmlessEncodedWords() throws {
        let message = try #require(Fixtures.prepared("To: b@example.org\nSubject: =?utf-8?q?Bcc:_not_a_field?=\n\nx"))
        #expect(message.subject == "Bcc: not a field")
    }

    @Test("a NUL byte in a header is binary content")
    func nulInHeader() {
        #expect(Fixtures.rejection("To: b@example.org\nSubject: a\0Bcc: x@y.org\n\nx") == .binaryContent)
    }

    @Test("an address that would break the SMTP envelope is refused", arguments: [
        "To: \"a>b\"@example.org", "To: \"a\r\"@example.org", "To: <a@b.org\u{7F}>",
    ])
    func envelopeBreakers(line: String) {
        #expect(Fixtures.rejection("\(line)\n\nx") != nil)
    }

    @Test("a field over 64 KB is refused (readers cut it)")
    func hugeField() {
        let text = "To: b@example.org\nX-Big: " + String(repeating: "word ", count: 14_000) + "\n\nx"
        #expect(Fixtures.rejection(text) == .headerTooLong(field: "X-Big"))
    }
}
