import Foundation
import Testing
@testable import MailCore

@Suite("Outgoing: RFC 2047 encoding, folding and long lines")
struct OutgoingEncodingTests {
    typealias Fixtures = OutgoingFixtures

    /// The transmitted header field `name`, unfolded, and its physical lines.
    private static func field(_ name: String, in message: PreparedOutgoing) -> (value: String, lines: [String])? {
        let lines = Fixtures.headerText(message).components(separatedBy: "\r\n")
        guard let start = lines.firstIndex(where: { $0.lowercased().hasPrefix(name.lowercased() + ":") }) else { return nil }
        let rest = lines[(start + 1)...].prefix { $0.hasPrefix(" ") || $0.hasPrefix("\t") }
        let all = [lines[start]] + rest
        return (String(all.joined().dropFirst(name.count + 1)), all)
    }

    @Test("a UTF-8 subject is encoded, decodes back, and keeps its ASCII prefix", arguments: [
        ("Café", "=?utf-8?q?Caf=C3=A9?="),
        ("Re: Déjà vu at 5", "Re: =?utf-8?q?D=C3=A9j=C3=A0?= vu at 5"),
        ("日本語の件名", "=?utf-8?b?5pel5pys6Kqe44Gu5Lu25ZCN?="),
        ("a =?utf-8?q?b?= é", "a =?utf-8?q?b?= =?utf-8?q?_=C3=A9?="),
        ("é =?utf-8?q?b?=", "=?utf-8?q?=C3=A9_?= =?utf-8?q?b?="),
        ("émoji 🎉 and ASCII tail", "=?utf-8?q?=C3=A9moji_=F0=9F=8E=89?= and ASCII tail"),
    ])
    func subject(subject: String, encoded: String) throws {
        let message = try #require(Fixtures.prepared("To: b@example.org\nSubject: \(subject)\n\nx"))
        #expect(Self.field("Subject", in: message)?.value == " " + encoded)
        #expect(message.subject == HeaderText.unstructured(subject))
        #expect(MessageParser.parse(message.data).subject == HeaderText.unstructured(subject))
        #expect(!message.needsSMTPUTF8)
    }

    @Test("a long UTF-8 subject is folded into lines of at most 78 characters")
    func longSubjectFolds() throws {
        let subject = String(repeating: "Schöne Grüße aus der Überseestadt, ", count: 12)
        let message = try #require(Fixtures.prepared("To: b@example.org\nSubject: \(subject)\n\nx"))
        let field = try #require(Self.field("Subject", in: message))
        #expect(field.lines.count > 5)
        #expect(field.lines.allSatisfy { $0.utf8.count <= 78 })
        #expect(message.subject == HeaderText.collapsingWhitespace(subject))
    }

    @Test("display names, quoted names, group names and comments are encoded; addresses are not", arguments: [
        ("Jürgen Müller <jm@example.org>", "=?utf-8?q?J=C3=BCrgen_M=C3=BCller?= <jm@example.org>",
         [EmailAddress(name: "Jürgen Müller", address: "jm@example.org")]),
        ("\"Müller, Jürgen\" <jm@example.org>", "=?utf-8?q?M=C3=BCller=2C_J=C3=BCrgen?= <jm@example.org>",
         [EmailAddress(name: "Müller, Jürgen", address: "jm@example.org")]),
        ("Équipe: a@example.org, Zoë <z@example.org>;",
         "=?utf-8?q?=C3=89quipe?=: a@example.org, =?utf-8?q?Zo=C3=AB?= <z@example.org>;",
         [EmailAddress(name: nil, address: "a@example.org"), EmailAddress(name: "Zoë", address: "z@example.org")]),
        ("z@example.org (Zoë)", "z@example.org (=?utf-8?q?Zo=C3=AB?=)",
         [EmailAddress(name: "Zoë", address: "z@example.org")]),
        ("Bob <b@example.org>, Zoë <z@example.org>", "Bob <b@example.org>, =?utf-8?q?Zo=C3=AB?= <z@example.org>",
         [EmailAddress(name: "Bob", address: "b@example.org"), EmailAddress(name: "Zoë", address: "z@example.org")]),
        ("=?utf-8?q?J=C3=BCrgen?= Müller <jm@example.org>", "=?utf-8?q?J=C3=BCrgen_M=C3=BCller?= <jm@example.org>",
         [EmailAddress(name: "Jürgen Müller", address: "jm@example.org")]),
    ])
    func names(to: String, encoded: String, addresses: [EmailAddress]) throws {
        let message = try #require(Fixtures.prepared("To: \(to)\n\nx"))
        #expect(Self.field("To", in: message)?.value == " " + encoded)
        #expect(MessageParser.parse(message.data).to == addresses)
        #expect(message.recipients == addresses.map(\.address))
    }

    @Test("a non-ASCII address stays raw and asks for SMTPUTF8")
    func internationalAddress() throws {
        let message = try #require(Fixtures.prepared("To: Jörg <jörg@bücher.example>\nCc: \"jö\"@example.org\n\nx"))
        #expect(Self.field("To", in: message)?.value == " =?utf-8?q?J=C3=B6rg?= <jörg@bücher.example>")
        #expect(Self.field("Cc", in: message)?.value == " \"jö\"@example.org")
        #expect(message.recipients == ["jörg@bücher.example", "\"jö\"@example.org"])
        #expect(message.needsSMTPUTF8)
    }

    @Test("a From alias with a UTF-8 name is encoded and still recognised")
    func aliasWithName() throws {
        let message = try #require(Fixtures.prepared("From: Alice Über <alice.work@example.net>\nTo: b@example.org\n\nx"))
        let from = MessageParser.parse(message.data).from
        #expect(from == [EmailAddress(name: "Alice Über", address: "alice.work@example.net")])
    }

    @Test("an unknown field with UTF-8 is encoded as text; Keywords as phrases")
    func otherFields() throws {
        let message = try #require(Fixtures.prepared("To: b@example.org\nX-Note: prêt\nKeywords: thé, café\n\nx"))
        #expect(Self.field("X-Note", in: message)?.value == " =?utf-8?q?pr=C3=AAt?=")
        #expect(Self.field("Keywords", in: message)?.value == " =?utf-8?q?th=C3=A9?=, =?utf-8?q?caf=C3=A9?=")
    }

    @Test("a header line over 998 bytes is folded at its blanks")
    func longASCIIHeaderFolds() throws {
        let references = (0..<60).map { "<message-\($0)@lists.example.org>" }.joined(separator: " ")
        let message = try #require(Fixtures.prepared("To: b@example.org\nReferences: \(references)\n\nx"))
        let field = try #require(Self.field("References", in: message))
        #expect(field.lines.count > 20 && field.lines.allSatisfy { $0.utf8.count <= 78 })
        #expect(MessageParser.parse(message.data).references.count == 60)
    }

    @Test("a header line over 998 bytes with nowhere to fold is refused")
    func unfoldableHeader() {
        let text = "To: b@example.org\nX-Blob: " + String(repeating: "A", count: 1200) + "\n\nx"
        #expect(Fixtures.rejection(text) == .headerTooLong(field: "X-Blob"))
    }

    @Test("a header line of 998 bytes is kept as it is")
    func longestLineKept() throws {
        let line = "X-Blob: " + String(repeating: "A", count: 990)
        let message = try #require(Fixtures.prepared("To: b@example.org\n\(line)\n\nx"))
        #expect(Fixtures.headerText(message).contains("\r\n\(line)\r\n"))
    }

    @Test("a body line over 998 bytes in a message we label is sent quoted-printable")
    func longBodyLine() throws {
        let paragraph = String(repeating: "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich. ", count: 30)
        let message = try #require(Fixtures.prepared("To: b@example.org\n\nshort line\n\(paragraph)\nend\n"))
        #expect(Fixtures.headerText(message).contains("Content-Transfer-Encoding: quoted-printable\r\n"))
        #expect(!message.needs8BitMIME)
        let body = MessageParser.parse(message.data).bodyPlain?.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(body == "short line\n\(paragraph)\nend\n")
        #expect(Fixtures.bodyText(message).components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 76 })
    }

    @Test("quoted-printable escapes trailing blanks and = and keeps lines at 76")
    func quotedPrintable() {
        let encoded = QuotedPrintableEncoder.encode([Array("a = b \t".utf8)[...], Array(String(repeating: "é", count: 40).utf8)[...]])
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.hasPrefix("a =3D b =09\r\n"))
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.count <= 76 })
        #expect(QuotedPrintable.decode(encoded[...]) == Array("a = b \t\r\n\(String(repeating: "é", count: 40))\r\n".utf8))
    }

    @Test("encoded words are at most 66 characters and split between characters", arguments: [
        String(repeating: "é", count: 100), String(repeating: "😀", count: 50), "a" + String(repeating: "ü", count: 33),
    ])
    func encodedWordLength(text: String) {
        let words = EncodedWordEncoder.encode(text)
        #expect(words.allSatisfy { $0.utf8.count <= EncodedWordEncoder.maxWordLength })
        #expect(EncodedWord.decode(words.joined(separator: " ")) == text)
        #expect(words.allSatisfy { EncodedWord.decode($0).unicodeScalars.allSatisfy { $0 != "\u{FFFD}" } })
    }

    @Test("the Date we add is RFC 5322, in UTC", arguments: [
        (0.0, "Thu, 1 Jan 1970 00:00:00 +0000"),
        (1_751_367_157, "Tue, 1 Jul 2025 10:52:37 +0000"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 +0000"),
    ])
    func dateFormat(seconds: Double, expected: String) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(RFC5322Date.string(from: date) == expected)
        #expect(DateParser.parse(expected) == date)
    }
}
