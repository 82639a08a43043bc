import Foundation
import TestSupport
import Testing
@testable import MailCore

@Suite("Splitting mbox files")
struct MboxSplitterTests {
    private func split(_ text: String) -> [String] {
        MboxSplitter.split(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("messages start after From_ lines, which are removed with the separating blank line")
    func basicSplit() {
        let mbox = "From a@x Fri Feb 22 23:00:00 2008\nSubject: one\n\nbody 1\n\n"
            + "From b@x Fri Feb 22 23:00:00 2008\nSubject: two\n\nbody 2\n\n"
        #expect(split(mbox) == ["Subject: one\n\nbody 1\n", "Subject: two\n\nbody 2\n"])
    }

    @Test("a From line opens a message even without a blank line before it (as mutt and Python's mailbox do)")
    func fromWithoutBlankLine() {
        let mbox = "From a@x Fri Feb 22 23:00:00 2008\nSubject: one\n\nline\nFrom b@x Sat Feb 23 2008\nSubject: two\n\n"
        #expect(split(mbox) == ["Subject: one\n\nline\n", "Subject: two\n"])
    }

    @Test("a UTF-8 byte order mark before the first From line is skipped")
    func byteOrderMark() {
        let mbox = [0xEF, 0xBB, 0xBF] + Array("From a@x date\nSubject: one\n\nbody\n".utf8)
        #expect(MboxSplitter.split(mbox).map { String(decoding: $0, as: UTF8.self) } == ["Subject: one\n\nbody\n"])
        #expect(MboxSplitter.looksLikeMbox(mbox) && !MboxSplitter.looksLikeMbox(Array("Subject: x\n".utf8)))
    }

    @Test("a consistent Content-Length (mboxcl2) keeps unescaped From lines in the body; an inconsistent one is ignored")
    func contentLength() {
        let body = "From the start, a body line\nFrom again\n"
        let cl2 = "From a@x date\nSubject: one\nContent-Length: \(body.utf8.count)\n\n\(body)\nFrom b@x date\nSubject: two\n\nx\n"
        #expect(split(cl2) == ["Subject: one\nContent-Length: \(body.utf8.count)\n\n\(body)", "Subject: two\n\nx\n"])
        let wrong = "From a@x date\nSubject: one\nContent-Length: 5\n\nFrom inside\nrest\n"
        #expect(split(wrong).count == 2)
    }

    @Test("message counts match Python's mailbox.mbox on awkward files")
    func pythonParity() async throws {
        let cases = [
            "From a@x d\nA: 1\n\nx\nFrom b@x d\nB: 2\n\ny\n",
            "From a@x d\r\nA: 1\r\n\r\nx\r\n\r\nFrom b@x d\r\nB: 2\r\n",
            "From a@x d\nFrom b@x d\nFrom c@x d\n",
            "From a@x d\nA: 1\n\n>From escaped\n\n\n\nFrom b@x d\nB\n",
            "From a@x d\n",
        ]
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            Issue.record("python3 is needed for the parity check")
            return
        }
        for text in cases {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("mbox-\(UUID().uuidString)")
            try Data(text.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            // Awaited off the cooperative pool: the other suites need its two threads.
            let python = try await ChildProcess.run(
                "/usr/bin/python3", ["-c", "import mailbox, sys; print(len(mailbox.mbox(sys.argv[1])))", file.path]
            ).output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(python == String(MboxSplitter.split(Array(text.utf8)).count), "\(text.debugDescription)")
        }
    }

    @Test(">From lines are unescaped by one level (mboxrd), other > lines kept")
    func unescaping() {
        let mbox = "From a@x Fri Feb 22 23:00:00 2008\nSubject: q\n\n>From the top\n>>From deeper\n"
            + "> From quoted\n>Frommage\nx>From mid\n\n"
        #expect(split(mbox) == ["Subject: q\n\nFrom the top\n>From deeper\n> From quoted\n>Frommage\nx>From mid\n"])
    }

    @Test("CRLF files split and keep their CRLF line ends")
    func crlf() {
        let mbox = "From a@x Fri Feb 22 23:00:00 2008\r\nSubject: one\r\n\r\nbody\r\n\r\n"
            + "From b@x Fri Feb 22 23:00:00 2008\r\nSubject: two\r\n\r\n>From x\r\n"
        #expect(split(mbox) == ["Subject: one\r\n\r\nbody\r\n", "Subject: two\r\n\r\nFrom x\r\n"])
    }

    @Test("a missing final newline and an empty message are handled")
    func edges() {
        #expect(split("From a@x Fri Feb 22 23:00:00 2008\nSubject: one\n\nno newline") == ["Subject: one\n\nno newline"])
        #expect(split("From a@x date\n\nFrom b@x date\nSubject: b\n") == ["", "Subject: b\n"])
        #expect(split("").isEmpty)
        #expect(split("\n\n").isEmpty)
        #expect(split("From only@x date") == [""])
    }

    @Test("text before the first From_ line is kept as a message")
    func leadingText() {
        #expect(split("Subject: lone\n\nbody\n\nFrom a@x date\nSubject: a\n") == ["Subject: lone\n\nbody\n", "Subject: a\n"])
        #expect(split("\n\nFrom a@x date\nSubject: a\n") == ["Subject: a\n"])
    }

    @Test("ranges point into the original bytes")
    func ranges() {
        let bytes = Array("From a@x date\nA\n\nFrom b@x date\nB\n".utf8)
        #expect(MboxSplitter.messageRanges(in: bytes) == [14..<16, 31..<33])
    }

    @Test("the mime4j rlug mbox splits into its five expected messages", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)))
    func mime4jCorpus() throws {
        let folder = try #require(SharedCorpora.url("mime4j/mbox-rlug"))
        let mbox = try [UInt8](Data(contentsOf: folder.appendingPathComponent("mbox.rlug")))
        let messages = MboxSplitter.split(mbox)
        #expect(messages.count == 5)
        for (index, message) in messages.enumerated() {
            let expected = try [UInt8](Data(contentsOf: folder.appendingPathComponent("mbox.rlug-\(index)")))
            // mime4j keeps the blank line that separates a message from the next From_
            // line; RFC 4155 makes it part of the mbox framing, so we drop it.
            #expect(message + [0x0A] == expected, "message \(index)")
        }
    }

    @Test("a large mbox splits in linear time")
    func largeMbox() {
        let one = Array("From a@x Fri Feb 22 23:00:00 2008\nSubject: s\n\n".utf8)
            + Array(repeating: Array("some body text that is long enough to look like mail >From\n".utf8), count: 30)
                .flatMap { $0 } + [0x0A]
        let count = 8_000
        var mbox: [UInt8] = []
        mbox.reserveCapacity(one.count * count)
        for _ in 0..<count { mbox += one }
        var ranges: [Range<Int>] = []
        let elapsed = ThreadCPUClock.measure { ranges = MboxSplitter.messageRanges(in: mbox) }
        #expect(ranges.count == count)
        #expect(elapsed < ThreadGrouperTests.timeBound, "\(mbox.count) bytes took \(elapsed)")
    }
}
