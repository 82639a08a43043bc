import Foundation
import Testing
@testable import IMAP

@Suite("Dovecot transcripts")
struct DovecotTranscriptTests {
    @Test("greeting and login capabilities")
    func capabilities() throws {
        let all = try responses(wire(DovecotTranscript.greetingAndLogin))
        guard case .untagged(.state(let greeting)) = all.first, case .capability(let before)? = greeting.code,
              case .tagged(let login) = all.last, case .capability(let after)? = login.state.code else {
            Issue.record("unexpected \(all)")
            return
        }
        #expect(before.contains("STARTTLS") && before.contains("AUTH=PLAIN"))
        #expect(after.contains("CONDSTORE") && after.contains("SPECIAL-USE") && after.contains("MOVE"))
        #expect(login.tag == "a1" && login.state.text == "Logged in")
    }

    @Test("LIST with SPECIAL-USE attributes and modified UTF-7 names")
    func listSpecialUse() throws {
        let entries = try responses(wire(DovecotTranscript.listSpecialUse)).compactMap { response -> MailboxListEntry? in
            guard case .untagged(.list(let entry)) = response else { return nil }
            return entry
        }
        #expect(entries.map(\.name) == ["INBOX", "Drafts", "Sent", "Trash", "Junk", "Entw&APw-rfe", "Entw&APw-rfe/Alt Stuff"])
        #expect(entries[2].has("\\Sent") && entries[4].attributes == ["\\hasnochildren", "\\junk"])
        #expect(entries.allSatisfy { $0.delimiter == "/" })
    }

    @Test("SELECT reports UIDVALIDITY, UIDNEXT and HIGHESTMODSEQ")
    func select() throws {
        let all = try responses(wire(DovecotTranscript.select))
        let codes = all.compactMap { response -> ResponseCode? in
            guard case .untagged(.state(let state)) = response else { return nil }
            return state.code
        }
        #expect(codes.contains(.uidValidity(1_762_351_439)))
        #expect(codes.contains(.uidNext(4)))
        #expect(codes.contains(.highestModSeq(7)))
        #expect(codes.contains(.unseen(2)))
        #expect(all.contains(.untagged(.exists(3))))
        #expect(all.last == .tagged(TaggedResponse(
            tag: "a3", state: ResponseState(status: .ok, code: .readWrite, text: "Select completed (0.002 + 0.000 + 0.001 secs)."))))
    }

    @Test("UID FETCH with ENVELOPE and a nested BODYSTRUCTURE")
    func fetchStructure() throws {
        let all = try responses(wire(DovecotTranscript.fetchStructure))
        #expect(all.count == 3)
        guard case .untagged(.fetch(1, let first)) = all[0], case .untagged(.fetch(2, let second)) = all[1] else {
            Issue.record("unexpected \(all)")
            return
        }
        #expect(first.malformed.isEmpty)
        #expect(first.uid == 1 && first.flags == ["\\Seen"] && first.rfc822Size == 9133)
        #expect(first.internalDate == Date(timeIntervalSince1970: 1_793_883_839))
        #expect(first.envelope?.to.map(\.address) == ["bob@example.org", "carol@example.org"])
        #expect(first.envelope?.messageID == "<report-3@example.com>")
        let leaves = try #require(first.bodyStructure).leaves
        #expect(leaves.map(\.section) == ["1.1", "1.2", "2", "3", "3.1", "3.2"])
        #expect(leaves.map(\.part.mimeType) == [
            "text/plain", "text/html", "application/pdf", "message/rfc822", "text/plain", "image/png",
        ])
        let pdf = leaves[2].part
        #expect(pdf.encoding == "base64" && pdf.size == 4096)
        #expect(pdf.disposition == BodyDisposition(type: "attachment", parameters: ["filename": "report.pdf", "size": "3000"]))
        let forwarded = leaves[3].part
        #expect(forwarded.description == "Forwarded" && forwarded.lines == 25)
        #expect(forwarded.message?.envelope.subject == "Fwd")
        #expect(leaves[5].part.id == "<img1@x>")
        guard case .multipart(let top)? = first.bodyStructure else {
            Issue.record("not multipart")
            return
        }
        #expect(top.subtype == "mixed" && top.parameters == ["boundary": "outer-b"] && top.language == ["de", "en"])
        #expect(second.envelope == Envelope())
        #expect(second.bodyStructure?.leaves.map(\.section) == ["1"])
        #expect(second.internalDate == Date(timeIntervalSince1970: 1_793_952_000))
    }

    @Test("BODY.PEEK[] and HEADER.FIELDS literals arrive byte for byte")
    func fetchBodies() throws {
        let all = try responses(wire(DovecotTranscript.fetchBodies), chunkSize: 13)
        #expect(all.count == 4)
        guard case .untagged(.fetch(_, let full)) = all[0], case .untagged(.fetch(_, let header)) = all[1],
              case .untagged(.fetch(_, let flags)) = all[2] else {
            Issue.record("unexpected \(all)")
            return
        }
        #expect(full.body("") == wire(DovecotTranscript.message))
        #expect(header.body("HEADER.FIELDS (From Subject Message-ID)") == wire(DovecotTranscript.headerFields))
        #expect(header.uid == 1)
        #expect(flags.modSeq == 9 && flags.flags == ["\\Seen", "\\Flagged"])
        #expect(all[3] == .tagged(TaggedResponse(tag: "a5", state: ResponseState(status: .ok, text: "Fetch completed (0.001 + 0.000 secs)."))))
    }
}
