import Foundation
import TestSupport
import Testing
@testable import MailCore

extension ThreadingInput {
    /// Terse test input: `.fixture(1, id: "a@x", replyTo: ["b@x"], subject: "x", day: 3)`.
    static func fixture(_ id: Int64, id messageID: String? = nil, replyTo: [String] = [],
                        references: [String] = [], subject: String = "", day: Double = 0) -> ThreadingInput {
        ThreadingInput(id: id, messageID: messageID, inReplyTo: replyTo, references: references,
                       subject: subject, date: Date(timeIntervalSince1970: 1_700_000_000 + day * 86_400))
    }
}

@Suite("Thread grouping by the reference graph")
struct ThreadGrouperTests {
    @Test("a reply joins its parent by In-Reply-To, unrelated mail stays apart")
    func replyJoinsParent() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: "a@x"),
            .fixture(2, id: "b@x", replyTo: ["a@x"]),
            .fixture(3, id: "c@x"),
        ])
        #expect(threads == [[1, 2], [3]])
    }

    @Test("References chains connect every ancestor")
    func referencesChain() {
        let threads = ThreadGrouper.group([
            .fixture(5, id: "d@x", references: ["a@x", "b@x", "c@x"]),
            .fixture(2, id: "b@x"),
            .fixture(9, id: "z@x"),
        ])
        #expect(threads == [[2, 5], [9]])
    }

    @Test("an id we do not have still connects the messages that name it")
    func ghostParentConnects() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: "r1@x", replyTo: ["missing-root@x"]),
            .fixture(2, id: "r2@x", references: ["missing-root@x"]),
            .fixture(3, id: "r3@x", replyTo: ["other-missing@x"]),
        ])
        #expect(threads == [[1, 2], [3]])
    }

    @Test("two messages with the same Message-ID are one node, hence one thread")
    func duplicateMessageIDs() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: "dup@x", references: ["p1@x"]),
            .fixture(2, id: "dup@x", references: ["p2@x"]),
            .fixture(3, id: "q@x", replyTo: ["p2@x"]),
        ])
        #expect(threads == [[1, 2, 3]])
    }

    @Test("loops and self-references neither hang nor split threads")
    func loopsAndSelfReferences() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: "a@x", replyTo: ["b@x"]),
            .fixture(2, id: "b@x", replyTo: ["a@x"], references: ["b@x", "a@x", "b@x"]),
            .fixture(3, id: "self@x", replyTo: ["self@x"], references: ["self@x"]),
        ])
        #expect(threads == [[1, 2], [3]])
    }

    @Test("ids are compared without angle brackets and surrounding spaces")
    func idsAreCleaned() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: " <a@x> "),
            .fixture(2, id: "b@x", replyTo: ["<a@x>"]),
            .fixture(3, id: "", replyTo: ["  ", "<>"]),
            .fixture(4, id: nil),
        ])
        #expect(threads == [[1, 2], [3], [4]])
    }

    @Test("a References header with 10,000 ids keeps its first and last ids")
    func hugeReferencesAreCapped() {
        let references = (0..<10_000).map { "ref\($0)@x" }
        let threads = ThreadGrouper.group([
            .fixture(1, id: "huge@x", references: references),
            .fixture(2, id: "root@x", references: ["ref0@x"]),
            .fixture(3, id: "near@x", references: ["ref9999@x"]),
            .fixture(4, id: "middle@x", references: ["ref5000@x"]),
        ])
        #expect(threads == [[1, 2, 3], [4]])
        #expect(ThreadingInput.maxReferences == 256)
    }

    @Test("the result does not depend on input order")
    func deterministicOrder() {
        var messages: [ThreadingInput] = (0..<200).map { (index: Int) -> ThreadingInput in
            let parents: [String] = index % 3 == 0 ? [] : ["m\(index / 2)@x"]
            return .fixture(Int64(index), id: "m\(index)@x", replyTo: parents,
                            subject: "s\(index % 7)", day: Double(index % 40))
        }
        let expected = ThreadGrouper.group(messages)
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<5 {
            messages.shuffle(using: &generator)
            #expect(ThreadGrouper.group(messages) == expected)
        }
        #expect(expected.allSatisfy { (thread: [Int64]) in thread == thread.sorted() })
        #expect(expected == expected.sorted { $0.lexicographicallyPrecedes($1) })
        let allIDs: [Int64] = expected.flatMap { $0 }.sorted()
        #expect(allIDs == (0..<200).map { Int64($0) })
    }

    @Test("50,000 messages are grouped in well under a second")
    func fiftyThousandMessages() {
        let messages: [ThreadingInput] = (0..<50_000).map { (index: Int) -> ThreadingInput in
            let isRoot = index % 5 == 0
            let root = "m\(index - index % 5)@example.org"
            let parent = "m\(index - 1)@example.org"
            return ThreadingInput.fixture(Int64(index), id: "m\(index)@example.org",
                                          replyTo: isRoot ? [] : [parent],
                                          references: isRoot ? [] : [root, parent],
                                          subject: isRoot ? "Topic \(index % 1000)" : "Re: Topic",
                                          day: Double(index) / 500)
        }
        var threads: [[Int64]] = []
        let elapsed = ThreadCPUClock.measure { threads = ThreadGrouper.group(messages) }
        #expect(threads.flatMap { $0 }.count == 50_000)
        #expect(elapsed < Self.timeBound, "grouping took \(elapsed)")
    }

    /// One second in release builds. Unoptimized debug builds, with the other suites
    /// running on the same two cores, are several times slower; the looser bound there
    /// still catches anything worse than near-linear time.
    #if DEBUG
    static let timeBound = Duration.seconds(5)
    #else
    static let timeBound = Duration.seconds(1)
    #endif

    /// A small deterministic generator so shuffles are reproducible.
    struct SeededGenerator: RandomNumberGenerator {
        private var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE5_E4B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }
}
