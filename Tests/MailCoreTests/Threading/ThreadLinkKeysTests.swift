import Foundation
import TestSupport
import Testing
@testable import MailCore

/// `ThreadLinkKeys` is what lets a rethread find the threads a new message joins: every
/// pair of messages `ThreadGrouper` links directly must be found by the new one's probe
/// in the other's stored keys.
@Suite("Thread link keys")
struct ThreadLinkKeysTests {
    @Test("two messages grouped together: the probe of either finds the other's keys (within the subject window)")
    func probeFindsEveryLink() {
        var generator = SeededGenerator(state: 17)
        let messages = (0..<250).map { Self.randomMessage(id: Int64($0), using: &generator) }
        var pairs = 0
        for (index, first) in messages.enumerated() {
            for second in messages[(index + 1)...] where ThreadGrouper.group([first, second]).count == 1 {
                pairs += 1
                #expect(Self.found(first, probing: second), "\(first) \(second)")
                #expect(Self.found(second, probing: first), "\(first) \(second)")
            }
        }
        #expect(pairs > 300, "the corpus links enough pairs: \(pairs)")
    }

    @Test("the stored keys never change: stores keep them")
    func stableKeys() {
        let message = ThreadingInput(id: 1, messageID: "<a@x>", inReplyTo: ["<b@x>"], references: [],
                                     subject: "Re: Lunch", date: Date(timeIntervalSince1970: 0))
        // 64-bit FNV-1a of the kind byte (1: Message-ID, 3: subject of a reply) and the text.
        #expect(ThreadLinkKeys.keys(of: message) == [-3_879_150_175_066_261_833, -3_132_631_257_723_108_878,
                                                      1_453_085_843_496_650_210])
    }

    @Test("an empty threading key probes and stores no subject key; duplicates are stored once")
    func emptySubjectAndDuplicates() {
        let message = ThreadingInput(id: 1, messageID: "a@x", inReplyTo: ["a@x"], references: ["<a@x>"],
                                     subject: "Re:", date: Date())
        #expect(ThreadLinkKeys.keys(of: message).count == 1)
        #expect(ThreadLinkKeys.probe(for: message).subjects.isEmpty)
    }

    /// Whether the stored keys of `stored` hold one of the probe of `new`: an id key, or a
    /// subject key with the two dates within the window.
    static func found(_ stored: ThreadingInput, probing new: ThreadingInput) -> Bool {
        let keys = Set(ThreadLinkKeys.keys(of: stored))
        let probe = ThreadLinkKeys.probe(for: new)
        if !keys.isDisjoint(with: probe.ids) { return true }
        let apart = abs(ThreadLinkKeys.subjectTime(stored.date) - ThreadLinkKeys.subjectTime(new.date))
        return !keys.isDisjoint(with: probe.subjects) && apart <= ThreadLinkKeys.subjectWindow
    }

    /// Ids from a small pool (so replies, shared references and duplicate ids happen),
    /// subjects from a few with prefixes, dates over a year, some without parent headers.
    static func randomMessage(id: Int64, using generator: inout SeededGenerator) -> ThreadingInput {
        let pool = (0..<60).map { "<m\($0)@x>" }
        let subjects = ["Lunch", "Re: Lunch", "AW: lunch", "[list] Plans", "Plans", "", "Re:", "Budget (fwd)"]
        let parents = Int.random(in: 0..<3, using: &generator)
        return ThreadingInput(
            id: id,
            messageID: Bool.random(using: &generator) ? pool.randomElement(using: &generator) : nil,
            inReplyTo: parents > 0 ? [pool.randomElement(using: &generator)!] : [],
            references: parents > 1 ? (0..<2).map { _ in pool.randomElement(using: &generator)! } : [],
            subject: subjects.randomElement(using: &generator)!,
            date: Date(timeIntervalSince1970: 1_780_000_000 + Double(Int.random(in: 0..<365, using: &generator)) * 86_400))
    }
}
