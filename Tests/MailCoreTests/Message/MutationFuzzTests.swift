import Foundation
import Testing
import TestSupport
@testable import MailCore

/// A deterministic "fuzz" run: corpus messages mutated thousands of times by a
/// seeded generator (flip, insert, delete, duplicate and splice bytes, cut the
/// end), each parsed and checked for the invariants. Same seed, same run.
@Suite("Seeded mutations of corpus messages", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)))
struct MutationFuzzTests {
    static let iterations = 3000

    /// Bytes that matter to the parsers, so mutations hit interesting paths.
    static let interesting: [[UInt8]] = ["\r\n", "\n", ":", ";", "=?", "?=", "--", "\"", "(", ")", "<", ">", "=",
                                         "*0*=", "%", "\0", "\u{FF}", "boundary=", "\r\n\r\n", "Content-Type: multipart/"]
        .map { Array($0.utf8) }

    static func mutate(_ input: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0...Int.random(in: 0...7, using: &generator) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0...5, using: &generator) {
            case 0 where !bytes.isEmpty:
                bytes[position] = UInt8.random(in: 0...255, using: &generator)
            case 1:
                bytes.insert(contentsOf: interesting.randomElement(using: &generator) ?? [], at: position)
            case 2 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...64, using: &generator)))
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...256, using: &generator))
                bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &generator))
            case 4:
                bytes.removeLast(bytes.count - position)
            default:
                bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
            }
        }
        return bytes
    }

    @Test("thousands of mutated messages parse and keep the invariants")
    func mutatedMessagesParse() {
        let corpus = CorpusFiles.allMessageFiles().map(CorpusFiles.bytes).filter { $0.count < 200_000 }
        #expect(corpus.count > 300)
        var generator = SeededGenerator(state: 0x6D61_696C_6673)
        for iteration in 0..<Self.iterations {
            let source = corpus[iteration % corpus.count]
            let mutated = Self.mutate(source, using: &generator)
            let message = MessageParser.parse(mutated)
            checkInvariants(message, raw: mutated, name: "mutation \(iteration)")
            _ = message.bodyHTML.map(HTMLText.plainText(fromHTML:))
        }
    }
}
