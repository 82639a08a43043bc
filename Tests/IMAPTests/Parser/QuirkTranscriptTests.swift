import Foundation
import Testing
@testable import IMAP

/// docs/IMAP-QUIRKS.md §1.2–§1.10: one recorded-style transcript per item, written from the
/// quirk's description, framed and parsed as the client will.
@Suite("Quirks §1: what real servers send")
struct QuirkTranscriptTests {
    private func fetches(_ all: [Response]) -> [FetchAttributes] {
        all.compactMap { response in
            guard case .untagged(.fetch(_, let attributes)) = response else { return nil }
            return attributes
        }
    }

    @Test("§1.2 NIL, \"\" and () all mean empty: address lists and body encoding")
    func nilEmptyEquivalence() throws {
        let all = try responses(wire("""
            * 1 FETCH (UID 1 ENVELOPE ("date" "" () NIL "" (("A" NIL "a" "x")) () NIL NIL NIL) \
            BODYSTRUCTURE ("text" "plain" () NIL NIL NIL 12 1))
            a1 OK done

            """))
        let attributes = try #require(fetches(all).first)
        let envelope = try #require(attributes.envelope)
        #expect(envelope.subject == "" && envelope.from.isEmpty && envelope.sender.isEmpty && envelope.replyTo.isEmpty)
        #expect(envelope.to.count == 1 && envelope.cc.isEmpty)
        #expect(attributes.bodyStructure == .single(SinglePart(type: "text", subtype: "plain", size: 12, lines: 1)))
    }

    @Test("§1.3 8-bit quoted strings, iCloud's unescaped quote, Outlook's quote in an atom, CR/LF in a string, missing spaces")
    func quotingQuirks() throws {
        let eightBit: [UInt8] = Array("* 1 FETCH (UID 1 ENVELOPE (NIL \"Gr".utf8) + [0xFC, 0xDF, 0x65]
            + Array("\" NIL NIL NIL NIL NIL NIL NIL \"<abc\"def@icloud.com>\"))\r\n".utf8)
        let outlook = wire("""
            * 2 FETCH (UID 2 FLAGS (\\Seen it"s) ENVELOPE ("Mon, 1 Jan 2024" "first
            second"(("N" NIL "n" "x"))NIL NIL NIL NIL NIL NIL"<id@x>"))
            a1 OK done

            """)
        let all = try responses(eightBit + outlook, chunkSize: 5)
        let attributes = fetches(all)
        #expect(all.count == 3)
        #expect(attributes[0].envelope?.subject == String(decoding: [0x47, 0x72, 0xFC, 0xDF, 0x65], as: UTF8.self))
        #expect(attributes[0].envelope?.messageID == "<abc\"def@icloud.com>")
        #expect(attributes[1].flags == ["\\Seen", "it\"s"])
        #expect(attributes[1].envelope?.subject == "first\r\nsecond")
        #expect(attributes[1].envelope?.from.first?.address == "n@x")
        #expect(attributes[1].envelope?.messageID == "<id@x>")
    }

    @Test("§1.4 literals in LIST names, UID after the body literal, {123} in human text")
    func literalsInUnexpectedPlaces() throws {
        let all = try responses(wire("""
            * LIST (\\HasNoChildren) "\\\\" \(literal("Mail\\Lotus \"Notes\""))
            * 3 FETCH (BODY[] \(literal("Subject: x\n\nUID 99\n")) UID 42)
            * OK [ALERT] You have {123} new messages
            a1 NO [ALERT] Quota {9}
            a2 OK done

            """), chunkSize: 7)
        #expect(all.count == 5)
        guard case .untagged(.list(let entry)) = all[0] else {
            Issue.record("no LIST")
            return
        }
        #expect(entry.name == "Mail\\Lotus \"Notes\"" && entry.delimiter == "\\")
        #expect(fetches(all).first?.uid == 42)
        #expect(all[2] == .untagged(.state(ResponseState(status: .ok, code: .alert, text: "You have {123} new messages"))))
        #expect(all[3] == .tagged(TaggedResponse(tag: "a1", state: ResponseState(status: .no, code: .alert, text: "Quota {9}"))))
    }

    @Test("§1.5 sloppy status lines, bare +, qq.com dates, Gmail keywords and labels, Office 365 codes")
    func sloppyStatusLines() throws {
        let all = try responses(wire("""
            * OK [UIDNEXT 5]
            * OK [UIDVALIDITY 7]UIDs valid
            * OK [HIGHESTMODSEQ 90210]
            +
            * 4 FETCH (UID 8 INTERNALDATE "7-Mar-2024 08:09:10 +0800" FLAGS (\\Seen [Gmail]Important $Label[1]) X-GM-LABELS (+IMNews "\\\\Inbox"))
            a1 OK [Error="Internal error" AuthResultFromPopImapEnd=0 Proxy=AM0PR.outlook.com:1993:SSL] AUTHENTICATE completed.
            a2 OK

            """))
        #expect(all[0] == .untagged(.state(ResponseState(status: .ok, code: .uidNext(5)))))
        #expect(all[1] == .untagged(.state(ResponseState(status: .ok, code: .uidValidity(7), text: "UIDs valid"))))
        #expect(all[2] == .untagged(.state(ResponseState(status: .ok, code: .highestModSeq(90210)))))
        #expect(all[3] == .continuation(""))
        let attributes = try #require(fetches(all).first)
        #expect(attributes.internalDate == Date(timeIntervalSince1970: 1_709_770_150))
        #expect(attributes.flags == ["\\Seen", "[Gmail]Important", "$Label[1]"])
        #expect(attributes.gmailLabels == ["+IMNews", "\\Inbox"])
        guard case .tagged(let office) = all[5], case .other(let name, let text)? = office.state.code else {
            Issue.record("no opaque code")
            return
        }
        #expect(office.state.status == .ok && office.state.text == "AUTHENTICATE completed.")
        #expect(name == "ERROR" && text?.contains("AuthResultFromPopImapEnd=0") == true)
        #expect(all[6] == .tagged(TaggedResponse(tag: "a2", state: ResponseState(status: .ok))))
    }

    @Test("§1.6 unsolicited FETCH, EXISTS and EXPUNGE in the middle of a command are all reported")
    func unsolicitedResponses() throws {
        let all = try responses(wire("""
            * 1 FETCH (UID 10 FLAGS (\\Seen))
            * 7 EXISTS
            * 3 EXPUNGE
            * 99 FETCH (UID 12345 FLAGS (\\Deleted))
            * 2 FETCH (FLAGS (\\Seen \\Flagged) UID 11)
            a7 OK [READ-WRITE] Store completed

            """))
        #expect(fetches(all).map(\.uid) == [10, 12345, 11])
        #expect(all[1] == .untagged(.exists(7)) && all[2] == .untagged(.expunge(3)))
    }

    @Test("§1.7 a tagged reply with an earlier command's tag is reported with that tag")
    func staleTag() throws {
        let all = try responses(wire("A0041 OK NOOP completed\nA0043 OK LOGOUT completed\n"))
        #expect(all.map { response -> String? in
            guard case .tagged(let tagged) = response else { return nil }
            return tagged.tag
        } == ["A0041", "A0043"])
    }

    @Test("§1.8 SEARCH and VANISHED lines far beyond 8192 octets")
    func longLines() throws {
        let uids = (1...30_000).map { String($0 * 2) }
        let ranges = (0..<5_000).map { "\($0 * 10 + 1):\($0 * 10 + 5)" }.joined(separator: ",")
        let all = try responses(wire("""
            * SEARCH \(uids.joined(separator: " ")) (MODSEQ 77)
            * VANISHED (EARLIER) \(ranges)
            a1 OK

            """), chunkSize: 8192)
        guard case .untagged(.search(let found, let modSeq)) = all[0],
              case .untagged(.vanished(true, let vanished)) = all[1] else {
            Issue.record("unexpected responses")
            return
        }
        #expect(found.count == 30_000 && found.last == 60_000 && modSeq == 77)
        #expect(vanished.ranges.count == 5_000 && vanished.count == 25_000)
    }

    @Test("§1.9 ALERT text, Gmail's trailing THROTTLED, Office 365 throttling then BYE")
    func alertsAndThrottling() throws {
        let all = try responses(wire("""
            * NO [ALERT] Too many simultaneous connections. (Failure)
            a1 OK Success [THROTTLED]
            a2 NO Request is throttled. Suggested Backoff Time: 299961 milliseconds
            * BYE Connection is closed. 13

            """))
        #expect(all[0] == .untagged(.state(ResponseState(status: .no, code: .alert, text: "Too many simultaneous connections. (Failure)"))))
        guard case .tagged(let gmail) = all[1], case .tagged(let office) = all[2] else {
            Issue.record("unexpected responses")
            return
        }
        #expect(gmail.state.code == .other(name: "THROTTLED", text: nil))
        #expect(office.state.status == .no && office.state.text.contains("299961 milliseconds"))
        #expect(all[3] == .untagged(.bye(ResponseState(status: .ok, text: "Connection is closed. 13"))))
    }

    @Test("§1.10 BYE can arrive at any time, even between FETCH responses")
    func byeAnyTime() throws {
        let all = try responses(wire("""
            * 1 FETCH (UID 1 BODY[] \(literal("x")))
            * BYE Autologout; idle for too long
            * 2 FETCH (UID 2 FLAGS ())

            """))
        #expect(all.count == 3)
        #expect(all[1] == .untagged(.bye(ResponseState(status: .ok, text: "Autologout; idle for too long"))))
    }
}
