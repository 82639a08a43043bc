import Foundation
import Testing
import TestSupport
@testable import MailCore

/// RFC 5256 base-subject expectations from Dovecot's imaptest scripts (corpora/imaptest):
/// subjects are taken from the test mboxes with `MboxSplitter` and `MessageParser`
/// (which decodes RFC 2047), message numbers are 1-based positions in the mbox.
@Suite("Base subjects against the imaptest corpus", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)))
struct SubjectCorpusTests {
    static func subjects(ofMbox name: String) throws -> [String] {
        let root = try #require(SharedCorpora.root)
        let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent("imaptest/tests/\(name)")))
        return MboxSplitter.split(bytes).map { MessageParser.parse($0).subject }
    }

    @Test("SORT (SUBJECT) order equals imaptest's sort-subject expectation")
    func sortSubject() throws {
        let subjects = try Self.subjects(ofMbox: "sort-subject.mbox")
        // RFC 5256 §3: base subjects compared with i;ascii-casemap (ASCII upper-cased
        // octets), ties broken by sequence number.
        let keys = subjects.map { Array(SubjectNormalizer.normalize($0).uppercased().utf8) }
        let order = keys.indices.sorted { left, right in
            keys[left] == keys[right] ? left < right : keys[left].lexicographicallyPrecedes(keys[right])
        }
        #expect(order.map { $0 + 1 } == [9, 10, 1, 14, 3, 5, 11, 6, 15, 2, 7, 12, 13, 8, 4])
    }

    @Test("THREAD=ORDEREDSUBJECT groups equal the threading key's groups", arguments: [
        ("thread-orderedsubject.mbox", [[1], [2, 7, 12, 13], [3, 5, 11], [4], [6], [8], [9, 10], [14], [15]]),
        ("thread-orderedsubject2.mbox", [[1, 3, 5, 7], [2, 4, 6, 8]]),
    ])
    func orderedSubjectGroups(mbox: String, expected: [[Int]]) throws {
        let subjects = try Self.subjects(ofMbox: mbox)
        let groups = Dictionary(grouping: subjects.indices) { SubjectNormalizer.threadingKey(subjects[$0]) }
        let numbered = groups.values.map { $0.map { $0 + 1 }.sorted() }.sorted { $0[0] < $1[0] }
        #expect(numbered == expected)
    }

    @Test("subject fallback threads the same mbox alike, except that empty subjects stay apart")
    func fallbackOnOrderedSubjectMbox() throws {
        let subjects = try Self.subjects(ofMbox: "thread-orderedsubject.mbox")
        let inputs = subjects.enumerated().map { index, subject in
            ThreadingInput(id: Int64(index + 1), messageID: nil, inReplyTo: [], references: [], subject: subject,
                           date: Date(timeIntervalSince1970: 1_203_710_400))
        }
        // ORDEREDSUBJECT puts 9 (no Subject) and 10 (a blank encoded word) together; we
        // decided an empty base subject never groups (FR-SYNC-06 step 4 matches subjects,
        // and "no subject" is no evidence of one conversation).
        #expect(ThreadGrouper.group(inputs) == [[1], [2, 7, 12, 13], [3, 5, 11], [4], [6], [8], [9], [10], [14], [15]])
    }
}
