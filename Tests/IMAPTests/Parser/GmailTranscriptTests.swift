import Testing
@testable import IMAP

@Suite("Gmail transcripts")
struct GmailTranscriptTests {
    private let all: [Response]

    init() throws {
        all = try responses(wire(GmailTranscript.session), chunkSize: 97)
    }

    @Test("the whole session parses, one response per line")
    func everyLineParses() {
        #expect(all.count == GmailTranscript.session.split(separator: "\n").count)
    }

    @Test("XOAUTH2 failure: a base64 continuation, then the tagged NO")
    func xoauth2Failure() {
        #expect(all[3] == .continuation(
            "eyJzdGF0dXMiOiI0MDAiLCJzY2hlbWVzIjoiQmVhcmVyIiwic2NvcGUiOiJodHRwczovL21haWwuZ29vZ2xlLmNvbS8ifQ=="))
        #expect(all[4] == .tagged(TaggedResponse(tag: "g1", state: ResponseState(
            status: .no, code: .other(name: "AUTHENTICATIONFAILED", text: nil), text: "Invalid credentials (Failure)"))))
    }

    @Test("XLIST and LIST keep Gmail's special-use attributes and localized names")
    func folders() {
        let entries = all.compactMap { response -> MailboxListEntry? in
            guard case .untagged(.list(let entry)) = response else { return nil }
            return entry
        }
        #expect(entries.count == 11)
        #expect(entries[2].has("\\AllMail"))
        #expect(entries.first { $0.has("\\All") }?.name == "[Gmail]/Alle Nachrichten")
        #expect(entries.first { $0.has("\\Important") }?.name == "[Gmail]/Wichtig")
        #expect(entries.last?.name == "Projekte/&AMQ-nderungen")
    }

    @Test("SELECT with HIGHESTMODSEQ and no text")
    func select() {
        #expect(all.contains(.untagged(.state(ResponseState(status: .ok, code: .highestModSeq(2_345_678))))))
        #expect(all.contains(.untagged(.exists(1234))))
    }

    @Test("X-GM-MSGID, X-GM-THRID and X-GM-LABELS before the UID")
    func gmailItems() {
        guard case .untagged(.fetch(1, let first)) = all[28], case .untagged(.fetch(2, let second)) = all[29] else {
            Issue.record("unexpected \(all[28])")
            return
        }
        #expect(first.uid == 4 && first.modSeq == 2_345_001)
        #expect(first.gmailMessageID == 1_278_455_344_230_334_865 && first.gmailThreadID == 1_266_894_439_832_287_888)
        #expect(first.gmailLabels == ["\\Inbox", "\\Sent", "Important", "Muy Importante", "[Imap]/Drafts", "+IMNews"])
        #expect(first.flags == ["\\Seen", "$Forwarded", "[Gmail]Spam"])
        #expect(second.gmailLabels == [] && second.flags == [] && second.uid == 9)
    }

    @Test("THROTTLED after the text and ALERT on a connection limit")
    func throttlingAndAlert() {
        #expect(all[30] == .tagged(TaggedResponse(tag: "g6", state: ResponseState(
            status: .ok, code: .other(name: "THROTTLED", text: nil), text: "Success [THROTTLED]"))))
        #expect(all[31] == .tagged(TaggedResponse(tag: "g7", state: ResponseState(
            status: .no, code: .alert, text: "Too many simultaneous connections. (Failure)"))))
    }
}
