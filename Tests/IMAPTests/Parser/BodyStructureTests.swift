import Foundation
import Testing
import TestSupport
@testable import IMAP

@Suite("BODYSTRUCTURE")
struct BodyStructureTests {
    private func body(_ structure: String) throws -> BodyStructure? {
        try fetchAttributes("* 1 FETCH (UID 1 BODYSTRUCTURE \(structure))\n")?.bodyStructure
    }

    @Test("a single text part with extension data")
    func singleText() throws {
        let structure = try body("""
            ("TEXT" "PLAIN" ("CHARSET" "US-ASCII" "FORMAT" "flowed") "<id@x>" "desc" "QUOTED-PRINTABLE" 3028 92 \
            "d41d8cd98f00b204e9800998ecf8427e" ("INLINE" NIL) "EN" "http://x/y")
            """)
        #expect(structure == .single(SinglePart(
            type: "text", subtype: "plain", parameters: ["charset": "US-ASCII", "format": "flowed"], id: "<id@x>",
            description: "desc", encoding: "quoted-printable", size: 3028, lines: 92,
            md5: "d41d8cd98f00b204e9800998ecf8427e", disposition: BodyDisposition(type: "inline"), language: ["EN"],
            location: "http://x/y")))
    }

    @Test("BODY without extension data reads the same")
    func nonExtensible() throws {
        let attributes = try fetchAttributes("* 1 FETCH (BODY (\"image\" \"gif\" NIL NIL NIL \"base64\" 4554))\n")
        #expect(attributes?.bodyStructure == .single(SinglePart(type: "image", subtype: "gif", encoding: "base64", size: 4554)))
    }

    @Test("an embedded message with a single-part body numbers its part n.1")
    func embeddedSinglePart() throws {
        let structure = try body("""
            (("text" "plain" NIL NIL NIL "7bit" 1 1)("message" "rfc822" NIL NIL NIL "7bit" 50 \
            (NIL "inner" NIL NIL NIL NIL NIL NIL NIL NIL) ("text" "plain" NIL NIL NIL "7bit" 5 1) 3) "mixed")
            """)
        #expect(structure?.leaves.map(\.section) == ["1", "2", "2.1"])
        #expect(structure?.part(at: "2")?.message?.envelope.subject == "inner")
        #expect(structure?.part(at: "9") == nil)
    }

    @Test("a message/rfc822 without envelope reads as a basic part")
    func messageWithoutEnvelope() throws {
        let structure = try body("(\"message\" \"rfc822\" NIL NIL NIL \"7bit\" 50)")
        #expect(structure == .single(SinglePart(type: "message", subtype: "rfc822", encoding: "7bit", size: 50)))
    }

    @Test("nesting beyond the limit fails the item, not the response")
    func tooDeep() throws {
        let deep = String(repeating: "(", count: 200) + "\"text\" \"plain\" NIL NIL NIL \"7bit\" 1 1"
            + String(repeating: " \"mixed\")", count: 199) + ")"
        let attributes = try fetchAttributes("* 1 FETCH (BODYSTRUCTURE \(deep) UID 77 FLAGS (\\Seen))\n")
        #expect(attributes?.bodyStructure == nil)
        #expect(attributes?.malformed == ["BODYSTRUCTURE"])
        #expect(attributes?.uid == 77 && attributes?.flags == ["\\Seen"])
    }

    @Test("a multipart with many parts is capped by the list limit")
    func tooManyParts() throws {
        let parts = String(repeating: "(\"text\" \"plain\" NIL NIL NIL \"7bit\" 1 1)", count: 50)
        var parser = ResponseParser(limits: ParserLimits(maxListItems: 10))
        let response = try parser.parse(wire("* 1 FETCH (UID 3 BODYSTRUCTURE (\(parts) \"mixed\"))\n"))
        guard case .untagged(.fetch(_, let attributes)) = response else {
            Issue.record("not a FETCH")
            return
        }
        #expect(attributes.bodyStructure == nil && attributes.uid == 3)
    }

    private static let corpus = SharedCorpora.url("imaptest/tests")

    /// The `* …` lines of a Dovecot imaptest script: the responses Dovecot must send.
    private func expectedResponses(_ name: String) throws -> [Response] {
        let corpus = try #require(Self.corpus)
        let text = try String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8)
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("* ") }
        return try lines.map { line in try parse(String(line) + "\n") }
    }

    @Test("Dovecot imaptest fetch-bodystructure expectation", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)))
    func imaptestBodyStructure() throws {
        let all = try expectedResponses("fetch-bodystructure")
        guard case .untagged(.fetch(1, let attributes))? = all.first else {
            Issue.record("unexpected \(all)")
            return
        }
        #expect(attributes.bodyStructure == .multipart(MultipartBody(
            parts: [.single(SinglePart(type: "text", subtype: "x-myown", parameters: ["charset": "us-ascii"],
                                       encoding: "7bit", size: 7, lines: 1))],
            subtype: "mixed")))
    }

    @Test("Dovecot imaptest fetch-envelope expectations", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)))
    func imaptestEnvelopes() throws {
        let envelopes = try expectedResponses("fetch-envelope").compactMap { response -> Envelope? in
            guard case .untagged(.fetch(_, let attributes)) = response else { return nil }
            return attributes.envelope
        }
        #expect(envelopes.count == 6)
        #expect(envelopes.first?.bcc == [IMAPAddress(name: "Bcc Real", mailbox: "bccuser", host: "bccdomain.org")])
        #expect(envelopes.first?.inReplyTo == "<reply@to.id>")
        #expect(envelopes[1].subject == nil && envelopes[1].to.isEmpty)
        let groups = envelopes[3].to
        #expect(groups.count == 7)
        #expect(groups.filter(\.isGroupStart).map(\.mailbox) == ["group", "group2"])
        #expect(groups.filter(\.isGroupEnd).count == 2)
        #expect(envelopes[5].from.first?.adl == "@route")
    }
}
