import Foundation
import Testing
import TestSupport
@testable import MailCore

/// Dovecot imaptest's `fetch-envelope` and `fetch-bodystructure` scripts:
/// the expected IMAP ENVELOPE / BODY of small hand-written messages.
@Suite("imaptest envelopes and body structure", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)))
struct ImaptestEnvelopeTests {
    private static func messages(_ mbox: String) throws -> [ParsedMessage] {
        let url = try #require(CorpusFiles.url("imaptest/tests/\(mbox)"))
        return MboxSplitter.split(CorpusFiles.bytes(url)).map(MessageParser.parse)
    }

    /// ENVELOPE address lists flattened as we keep them: groups dissolved, a
    /// source route dropped, a trailing comment as the name (what imaptest's
    /// server, Dovecot, reports too).
    @Test("envelope fields match imaptest's expectation")
    func envelopes() throws {
        let messages = try Self.messages("fetch-envelope.mbox")
        try #require(messages.count == 6)
        let first = messages[0]
        #expect(first.subject == "subject header")
        #expect(first.messageID == "msg@id")
        #expect(first.inReplyTo == ["reply@to.id"])
        #expect(first.from == [EmailAddress(name: "From Real", address: "fromuser@fromdomain.org")])
        #expect(first.replyTo == [EmailAddress(name: "ReplyTo Real", address: "replytouser@replytodomain.org")])
        #expect(first.to == [EmailAddress(name: "To Real", address: "touser@todomain.org")])
        #expect(first.cc == [EmailAddress(name: "Cc Real", address: "ccuser@ccdomain.org")])
        #expect(first.bcc == [EmailAddress(name: "Bcc Real", address: "bccuser@bccdomain.org")])
        #expect(first.date == DateParserTests.instant(2007, 2, 15, 1, 2, 3, offsetMinutes: 120))
        #expect(messages[1].from == [EmailAddress(name: nil, address: "user@domain")])
        #expect(messages[3].from == [EmailAddress(name: "Real Name", address: "user@domain")])
        #expect(messages[3].to.map(\.address) == ["g1@d1.org", "g2@d2.org", "g3@d3.org"])
        #expect(messages[3].cc.isEmpty)
        #expect(messages[4].replyTo.isEmpty)
        #expect(messages[5].from == [EmailAddress(name: nil, address: "user@domain")])
    }

    @Test("a boundary folded inside its quotes still splits the body")
    func foldedBoundary() throws {
        let raw = try #require(CorpusFiles.url("imaptest/tests/fetch-bodystructure.mbox")).path
        let message = try #require(MboxSplitter.split(CorpusFiles.bytes(URL(fileURLWithPath: raw))).first)
        let root = MessageParser.structure(message)
        #expect(root.contentType.boundary == "foo bar")
        #expect(root.children.map { "\($0.partID) \($0.contentType.mimeType) \($0.contentType.charset ?? "-")" }
            == ["1 text/x-myown us-ascii"])
    }
}
