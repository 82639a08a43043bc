import Foundation
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

    @Test("a From line that does not follow a blank line stays in the body")
    func fromInsideBody() {
        let mbox = "From a@x Fri Feb 22 23:00:00 2008\nSubject: one\n\nline\nFrom here on, it is body\n\n"
        #expect(split(mbox) == ["Subject: one\n\nline\nFrom here on, it is body\n"])
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

    @Test("the mime4j rlug mbox splits into its five expected messages")
    func mime4jCorpus() throws {
        let folder = try #require(SharedCorpusFolder.url?.appendingPathComponent("mime4j/mbox-rlug"),
                                  "corpora not found at ../shared/corpora")
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
        let clock = ContinuousClock()
        var ranges: [Range<Int>] = []
        let elapsed = clock.measure { ranges = MboxSplitter.messageRanges(in: mbox) }
        #expect(ranges.count == count)
        #expect(elapsed < ThreadGrouperTests.timeBound, "\(mbox.count) bytes took \(elapsed)")
    }
}
