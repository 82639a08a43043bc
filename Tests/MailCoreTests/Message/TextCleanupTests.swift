import Testing
import TestSupport
@testable import MailCore

/// The fast paths of the text every stored message goes through (line ends of its bodies,
/// the blanks of its snippet) give what the plain rules give.
@Suite("Line ends and snippet blanks")
struct TextCleanupTests {
    @Test("CR LF and a lone CR become LF, as the byte-by-byte rule has it, on random texts")
    func lineEnds() {
        var generator = SeededGenerator(state: 10)
        let pieces = ["a", "line", "é", "✓", " ", "\r", "\n", "\r\n", "\r\r\n", "\n\r"]
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...40, using: &generator))
                .map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(MessageParser.withLFLineEnds(text) == Self.lfLineEnds(text), "\(Array(text.utf8))")
        }
        #expect(MessageParser.withLFLineEnds("no carriage return\n") == "no carriage return\n")
        #expect(MessageParser.withLFLineEnds("a\r\nb\rc\r") == "a\nb\nc\n")
    }

    @Test("a snippet's blanks: every ASCII character and CR LF as whitespace or control by Unicode")
    func snippetBlanks() {
        let characters = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + ["\r\n", "\u{85}", "\u{A0}", "é"]
        for character in characters {
            let byUnicode = character.isWhitespace || character.unicodeScalars.allSatisfy { $0.value < 0x20 }
            #expect(Snippet.isBlank(character) == byUnicode, "\(character.unicodeScalars.map(\.value))")
        }
    }

    /// The rule as first written: each byte in turn, an LF right after a CR dropped.
    private static func lfLineEnds(_ text: String) -> String {
        var output: [UInt8] = []
        var previousWasCR = false
        for byte in text.utf8 {
            if byte != ASCII.lf || !previousWasCR { output.append(byte == ASCII.cr ? ASCII.lf : byte) }
            previousWasCR = byte == ASCII.cr
        }
        return String(decoding: output, as: UTF8.self)
    }
}
