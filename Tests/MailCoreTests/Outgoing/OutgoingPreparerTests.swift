import Foundation
import Testing
@testable import MailCore

@Suite("Outgoing: preparing a file from outbox/ for SMTP")
struct OutgoingPreparerTests {
    typealias Fixtures = OutgoingFixtures

    @Test("the issue's example gets From, Date, Message-ID and MIME fields, in CRLF")
    func issueExample() throws {
        let message = try #require(Fixtures.prepared("To: Bob <bob@example.org>\nSubject: Lunch?\n\nNoon at the usual place?\n"))
        let expected = "From: Alice Liddell <alice@example.org>\r\n"
            + "Date: Tue, 1 Jul 2025 10:52:37 +0000\r\n"
            + "Message-ID: <0197c5a1-test@example.org>\r\n"
            + "To: Bob <bob@example.org>\r\n"
            + "Subject: Lunch?\r\n"
            + "MIME-Version: 1.0\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Transfer-Encoding: 7bit\r\n"
            + "\r\n"
            + "Noon at the usual place?\r\n"
        #expect(String(decoding: message.data, as: UTF8.self) == expected)
        #expect(message.recipients == ["bob@example.org"])
        #expect(message.envelopeFrom == "alice@example.org")
        #expect(message.messageId == "0197c5a1-test@example.org")
        #expect(message.subject == "Lunch?")
        #expect(!message.needs8BitMIME && !message.needsSMTPUTF8)
        let parsed = MessageParser.parse(message.data)
        #expect(parsed.to == [EmailAddress(name: "Bob", address: "bob@example.org")])
        #expect(parsed.date == Fixtures.now)
        #expect(parsed.bodyPlain == "Noon at the usual place?\r\n" || parsed.bodyPlain == "Noon at the usual place?\n")
    }

    @Test("CRLF, LF and mixed line ends give the same bytes", arguments: [
        "To: bob@example.org\r\nSubject: s\r\n\r\nline one\r\nline two\r\n",
        "To: bob@example.org\nSubject: s\n\nline one\nline two\n",
        "To: bob@example.org\r\nSubject: s\n\r\nline one\nline two\r\n",
        "To: bob@example.org\nSubject: s\r\n\nline one\r\nline two",
    ])
    func lineEnds(text: String) throws {
        let message = try #require(Fixtures.prepared(text))
        #expect(Fixtures.bodyText(message) == "line one\r\nline two\r\n")
        #expect(Fixtures.headerText(message).contains("\r\nTo: bob@example.org\r\nSubject: s\r\n"))
    }

    @Test("the user's other fields stay in order, byte for byte, folds included")
    func keepsOtherFields() throws {
        let text = "X-Custom:   odd  spacing \nTo: bob@example.org,\n\tcarol@example.org\nSubject : obsolete colon\n"
            + "In-Reply-To: <a@b>\nReferences: <x@y>\n  <a@b>\n\nhi\n"
        let message = try #require(Fixtures.prepared(text))
        let header = Fixtures.headerText(message)
        #expect(header.contains("X-Custom:   odd  spacing \r\nTo: bob@example.org,\r\n\tcarol@example.org\r\n"
            + "Subject : obsolete colon\r\nIn-Reply-To: <a@b>\r\nReferences: <x@y>\r\n  <a@b>\r\nMIME-Version"))
        #expect(message.recipients == ["bob@example.org", "carol@example.org"])
    }

    @Test("the user's Date and Message-ID are kept; unreadable ones are replaced")
    func keepsDateAndMessageID() throws {
        let own = try #require(Fixtures.prepared(
            "Date: Mon, 30 Jun 2025 08:00:00 +0200\nMessage-ID: <mine@host.example>\nTo: b@example.org\n\nx"))
        #expect(own.messageId == "mine@host.example")
        #expect(Fixtures.headerText(own).contains("Date: Mon, 30 Jun 2025 08:00:00 +0200\r\n"))
        #expect(!Fixtures.headerText(own).contains("+0000"))
        let broken = try #require(Fixtures.prepared("Date: someday\nMessage-ID:\nTo: b@example.org\n\nx"))
        #expect(broken.messageId == "0197c5a1-test@example.org")
        #expect(!Fixtures.headerText(broken).contains("someday"))
    }

    @Test("Message-IDs hold only atext: the token and the domain are cleaned")
    func messageIDIsClean() {
        let policy = OutgoingPolicy(accountAddress: "me@Mail.Example.COM")
        let result = OutgoingPreparer.prepare(Array("To: b@example.org\n\nx".utf8), policy: policy,
                                              now: Fixtures.now, uniqueToken: "a b<c>\r\nBcc: d@e")
        #expect((try? result.get().messageId) == "abcBccde@Mail.Example.COM")
        #expect(OutgoingPolicy(accountAddress: "no-domain").messageIdDomain == "mailfs.invalid")
    }

    @Test("recipients come from To, Cc and Bcc, in that order, each once without case")
    func recipientsInOrder() throws {
        let text = "Bcc: hidden@example.org, BOB@example.org\nCc: carol@example.org\n"
            + "To: Bob <bob@example.org>, dave@example.org\n\nx"
        let message = try #require(Fixtures.prepared(text))
        #expect(message.recipients == ["bob@example.org", "dave@example.org", "carol@example.org",
                                       "hidden@example.org"])
    }

    @Test("group syntax: members are recipients, an empty group is none", arguments: [
        ("To: Team: a@example.org, \"B B\" <b@example.org>;\n", ["a@example.org", "b@example.org"]),
        ("To: undisclosed-recipients:;\nBcc: x@example.org\n", ["x@example.org"]),
        ("To: Friends: a@example.org;, c@example.org\n", ["a@example.org", "c@example.org"]),
    ])
    func groups(header: String, recipients: [String]) throws {
        let message = try #require(Fixtures.prepared(header + "\nbody\n"))
        #expect(message.recipients == recipients)
        #expect(Fixtures.headerText(message).contains(header.replacingOccurrences(of: "\n", with: "\r\n")
            .split(separator: "\r\n")[0] + "\r\n"))
    }

    @Test("Bcc is stripped with its continuation lines, yet its addresses are recipients")
    func bccStripped() throws {
        let text = "To: a@example.org\nBcc: b@example.org,\n c@example.org\nSubject: s\nbcc: d@example.org\n\nbody\n"
        let message = try #require(Fixtures.prepared(text))
        let header = Fixtures.headerText(message)
        #expect(!header.lowercased().contains("bcc"))
        #expect(!header.contains("c@example.org") && !header.contains("d@example.org"))
        #expect(header.contains("To: a@example.org\r\nSubject: s\r\nMIME-Version"))
        #expect(message.recipients == ["a@example.org", "b@example.org", "c@example.org", "d@example.org"])
    }

    @Test("a message with only Bcc is sent to Bcc and shows no recipient")
    func bccOnly() throws {
        let message = try #require(Fixtures.prepared("Bcc: secret@example.org\nSubject: s\n\nbody\n"))
        #expect(message.recipients == ["secret@example.org"])
        #expect(!Fixtures.headerText(message).contains("secret"))
    }

    @Test("From may be the account or an alias, in any case; it is kept as written", arguments: [
        "From: alice@example.org", "From: ALICE@Example.Org", "From: Work <alice.work@example.net>",
        "From: \"Alice (work)\" <Alice.Work@Example.NET>",
    ])
    func allowedFrom(from: String) throws {
        let message = try #require(Fixtures.prepared(from + "\nTo: b@example.org\n\nx"))
        #expect(Fixtures.headerText(message).hasPrefix("Date: "))
        #expect(Fixtures.headerText(message).contains("\r\n" + from + "\r\n"))
        #expect(message.envelopeFrom == "alice@example.org")
    }

    @Test("the From we add carries the display name, quoted or encoded as needed", arguments: [
        (nil, "From: alice@example.org"),
        ("Alice", "From: Alice <alice@example.org>"),
        ("Alice Q. Liddell", "From: \"Alice Q. Liddell\" <alice@example.org>"),
        ("Ali \"ce\"", "From: \"Ali \\\"ce\\\"\" <alice@example.org>"),
        ("Alice\r\nBcc: x@y", "From: \"Alice Bcc: x@y\" <alice@example.org>"),
        ("Élise", "From: =?utf-8?q?=C3=89lise?= <alice@example.org>"),
    ] as [(String?, String)])
    func addedFrom(name: String?, line: String) throws {
        let policy = OutgoingPolicy(accountAddress: "alice@example.org", displayName: name)
        let message = try #require(Fixtures.prepared("To: b@example.org\n\nx", policy: policy))
        #expect(Fixtures.headerText(message).hasPrefix(line + "\r\n"))
        #expect(MessageParser.parse(message.data).from.first?.name == name.map(HeaderText.collapsingWhitespace))
    }

    @Test("a body with non-ASCII is declared 8bit and needs 8BITMIME")
    func eightBitBody() throws {
        let message = try #require(Fixtures.prepared("To: b@example.org\n\nGrüße aus Köln – 🍺\n"))
        #expect(Fixtures.headerText(message).contains("Content-Transfer-Encoding: 8bit\r\n"))
        #expect(message.needs8BitMIME)
        #expect(MessageParser.parse(message.data).bodyPlain?.hasPrefix("Grüße aus Köln – 🍺") == true)
    }

    @Test("a UTF-8 byte order mark at the start is ignored")
    func byteOrderMark() throws {
        let message = try #require(Fixtures.prepared("\u{FEFF}To: b@example.org\n\nx"))
        #expect(message.recipients == ["b@example.org"])
    }

    @Test("a header without a body, and a line of blanks as the separator, are accepted")
    func headerOnlyAndBlankSeparator() throws {
        let bare = try #require(Fixtures.prepared("To: b@example.org\nSubject: no body"))
        #expect(Fixtures.bodyText(bare).isEmpty)
        let blanks = try #require(Fixtures.prepared("To: b@example.org\n  \t\nHello: this is the body\n"))
        #expect(Fixtures.bodyText(blanks) == "Hello: this is the body\r\n")
    }

    @Test("a user's MIME message is sent as labelled; 8bit is declared when missing")
    func userMIME() throws {
        let head = "To: b@example.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=XX\n\n"
            + "--XX\nContent-Type: text/plain; charset=iso-8859-1\n\ncaf"
        let bytes = Array(head.utf8) + [0xE9] + Array("\n--XX--\n".utf8)
        guard case .success(let message) = Fixtures.prepare(bytes) else {
            Issue.record("refused")
            return
        }
        Fixtures.checkSendable(message)
        let header = Fixtures.headerText(message)
        #expect(header.hasSuffix("Content-Type: multipart/mixed; boundary=XX\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"))
        #expect(header.components(separatedBy: "MIME-Version").count == 2)
        #expect(MessageParser.parse(message.data).bodyPlain?.hasPrefix("café") == true)
    }
}
