import Foundation
import Testing
import TestSupport
@testable import MailCore

/// Threads of the notmuch corpora (parsed with `MessageParser`, grouped with
/// `ThreadGrouper`) against notmuch 0.37's THREADS.expected: one line per thread, the
/// thread's Message-IDs sorted bytewise (see corpora/notmuch-default/SOURCE.md).
///
/// notmuch threads by References/In-Reply-To only. Where FR-SYNC-06 differs from it the
/// difference is listed in `allowedMerges` with its rule; any other difference fails.
@Suite("Threading the notmuch corpora", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)))
struct ThreadingCorpusTests {
    /// Threads that notmuch keeps apart and FR-SYNC-06 joins, with the rule that joins them.
    struct AllowedMerge: Sendable {
        var expectedThreads: Set<String>
        var rule: String
    }

    static let corpora: [(folder: String, expected: String, allowedMerges: [AllowedMerge])] = [
        ("notmuch-default/mail", "notmuch-default/THREADS.expected", []),
        ("notmuch-misc/threading", "notmuch-misc/threading.THREADS.expected", [
            AllowedMerge(expectedThreads: [
                "000-real-root@example.org 001-child@example.org 001-fake-message-root@example.org "
                    + "001-grand-child2@example.org 001-grand-child@example.org 001-great-grand-child@example.org",
                "B00-root@example.org B01-child@example.org B01-grand-child@example.org",
            ], rule: "FR-SYNC-06 step 4: ghost-root/real-root and parent-priority/cur/root have neither "
                + "In-Reply-To nor References, the same subject \"root message\" and the same date, so the "
                + "subject fallback joins their threads; notmuch has no subject fallback"),
        ]),
        ("notmuch-misc/broken", "notmuch-misc/broken.THREADS.expected", []),
        ("notmuch-misc/duplicate", "notmuch-misc/duplicate.THREADS.expected", []),
    ]

    @Test("threads equal notmuch's except for the listed FR-SYNC-06 subject merges",
          arguments: corpora.map(\.folder))
    func corpusThreads(folder: String) throws {
        let root = try #require(SharedCorpora.root)
        let corpus = try #require(Self.corpora.first { $0.folder == folder })
        let expectedText = try String(contentsOf: root.appendingPathComponent(corpus.expected), encoding: .utf8)
        let expected = Set(expectedText.split(separator: "\n").map(String.init))
        let actual = try Self.threadLines(ofFolder: root.appendingPathComponent(folder))

        let mergedExpectation = Self.applying(corpus.allowedMerges, to: expected)
        let unexplainedActual = actual.subtracting(mergedExpectation).sorted()
        let unexplainedExpected = mergedExpectation.subtracting(actual).sorted()
        #expect(unexplainedActual.isEmpty && unexplainedExpected.isEmpty,
                "ours only: \(unexplainedActual)\nnotmuch only: \(unexplainedExpected)")
        for merge in corpus.allowedMerges {
            #expect(merge.expectedThreads.isSubset(of: expected), "stale allowed merge: \(merge.rule)")
        }
    }

    /// The expected lines with each allowed merge's threads joined into one line.
    static func applying(_ merges: [AllowedMerge], to expected: Set<String>) -> Set<String> {
        var lines = expected
        for merge in merges {
            lines.subtract(merge.expectedThreads)
            lines.insert(line(of: merge.expectedThreads.flatMap { $0.split(separator: " ").map(String.init) }))
        }
        return lines
    }

    /// Parses every file under `folder` and returns our threads in THREADS.expected form.
    static func threadLines(ofFolder folder: URL) throws -> Set<String> {
        let files = try messageFiles(under: folder)
        var inputs: [ThreadingInput] = []
        var messageIDOfInput: [Int64: String] = [:]
        for (index, file) in files.enumerated() {
            let parsed = MessageParser.parse(try [UInt8](Data(contentsOf: file)))
            let id = Int64(index)
            messageIDOfInput[id] = parsed.messageID ?? "(no id) \(file.lastPathComponent)"
            inputs.append(ThreadingInput(id: id, messageID: parsed.messageID, inReplyTo: parsed.inReplyTo,
                                         references: parsed.references, subject: parsed.subject,
                                         date: parsed.date ?? Date(timeIntervalSince1970: 0)))
        }
        let threads = ThreadGrouper.group(inputs)
        return Set(threads.map { thread in line(of: thread.compactMap { messageIDOfInput[$0] }) })
    }

    /// Distinct ids sorted bytewise, space-separated.
    static func line(of ids: [String]) -> String {
        Set(ids).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: " ")
    }

    static func messageFiles(under folder: URL) throws -> [URL] {
        let keys: [URLResourceKey] = [.isRegularFileKey]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else {
            return []
        }
        var files: [URL] = []
        for case let url as URL in walker where try url.resourceValues(forKeys: Set(keys)).isRegularFile == true {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }
}
