import Testing
import TestSupport
@testable import MailCore

/// Random and mutated queries: the parser never crashes or loops, refuses with an offset
/// inside the query, and what it accepts is a well-formed tree within its bounds. Seeded,
/// so a failure reproduces.
@Suite("Seeded random search queries")
struct SearchParserFuzzTests {
    static let iterations = 20_000
    static let alphabet = Array(#"()"-+*:.@/ \t abcANDORNOT fromtagdateisid folder..unread 2026-10-01 7d\#u{0}é☕{}<>&"#)
    static let seeds = [
        #"from:alice subject:"budget plans" -tag:unread"#, "date:2026-10-01..2026-10-31 (a OR b) NOT c",
        "tag:unread tag:flagged folder:inbox id:<a@b>", #""quarterly report" NOT from:me@example.com"#,
    ]

    @Test("every query is parsed or refused, never crashing")
    func randomQueries() {
        var generator = SeededGenerator(state: 0x7365_6172_6368)
        for iteration in 0..<Self.iterations {
            let query = iteration % 2 == 0 ? Self.random(using: &generator) : Self.mutated(using: &generator)
            check(query)
        }
    }

    private func check(_ query: String) {
        do {
            let parsed = try SearchParser.parse(query)
            #expect(Self.depth(parsed) <= 4 * SearchParser.maximumDepth + 4, "\(query.debugDescription)")
            #expect(Self.terms(parsed) <= SearchParser.maximumTerms, "\(query.debugDescription)")
        } catch {
            #expect((0...query.count).contains(error.offset), "\(query.debugDescription): \(error)")
            #expect(!error.reason.isEmpty)
        }
    }

    static func random(using generator: inout SeededGenerator) -> String {
        String((0..<Int.random(in: 0...48, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? " " })
    }

    static func mutated(using generator: inout SeededGenerator) -> String {
        var characters = Array(seeds.randomElement(using: &generator) ?? "")
        for _ in 0...Int.random(in: 0...4, using: &generator) {
            let position = Int.random(in: 0...characters.count, using: &generator)
            if Bool.random(using: &generator), position < characters.count {
                characters.remove(at: position)
            } else {
                characters.insert(alphabet.randomElement(using: &generator) ?? " ", at: position)
            }
        }
        return String(characters)
    }

    static func depth(_ query: SearchQuery) -> Int {
        switch query {
        case .everything, .term: 1
        case .not(let inner): 1 + depth(inner)
        case .and(let operands), .or(let operands): 1 + (operands.map(depth).max() ?? 0)
        }
    }

    static func terms(_ query: SearchQuery) -> Int {
        switch query {
        case .everything, .term: 1
        case .not(let inner): terms(inner)
        case .and(let operands), .or(let operands): operands.map(terms).reduce(0, +)
        }
    }
}
