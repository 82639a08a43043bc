import Foundation
import Testing
import TestSupport
@testable import MailCore

/// CR LF line ends before an APPEND (RFC 5322 §2.3, RFC 3501 §6.3.11): a table of the
/// cases, then properties over seeded random inputs made of the bytes that matter.
@Suite("Line ends made CR LF")
struct LineEndsTests {
    @Test("bare LF and bare CR become CR LF; a CR LF stays one line end", arguments: [
        ("a\nb", "a\r\nb"),
        ("a\r\nb", "a\r\nb"),
        ("a\rb", "a\r\nb"),
        ("a\n\nb\n", "a\r\n\r\nb\r\n"),
        ("a\r\r\nb", "a\r\n\r\nb"),
        ("a\n\r", "a\r\n\r\n"),
        ("\r", "\r\n"),
        ("\n", "\r\n"),
        ("", ""),
        ("no line end", "no line end"),
    ])
    func table(input: String, expected: String) {
        #expect(LineEnds.crlf(Array(input.utf8)) == Array(expected.utf8))
    }

    static func randomInput(using generator: inout SeededGenerator) -> [UInt8] {
        let alphabet: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, UInt8(ascii: "a"), UInt8(ascii: ":"), 0x20, 0xFF, 0x00]
        return (0..<Int.random(in: 0...64, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
    }

    @Test("every CR is followed by LF and every LF preceded by CR; the text between line ends is kept; a second pass changes nothing")
    func properties() {
        var generator = SeededGenerator(state: 42)
        let failing = (0..<20_000).lazy.map { _ in Self.randomInput(using: &generator) }.first { !Self.holdsProperties($0) }
        #expect(failing == nil, "first input that breaks a property: \(failing ?? [])")
    }

    static func holdsProperties(_ input: [UInt8]) -> Bool {
        let output = LineEnds.crlf(input)
        let onlyCRLF = output.indices.allSatisfy { index in
            switch output[index] {
            case 0x0D: index + 1 < output.count && output[index + 1] == 0x0A
            case 0x0A: index > 0 && output[index - 1] == 0x0D
            default: true
            }
        }
        let text: ([UInt8]) -> [UInt8] = { $0.filter { $0 != 0x0D && $0 != 0x0A } }
        let lineEnds = input.indices.filter { input[$0] == 0x0A ? ($0 == 0 || input[$0 - 1] != 0x0D) : input[$0] == 0x0D }.count
        return onlyCRLF && text(input) == text(output) && LineEnds.crlf(output) == output
            && output.count(where: { $0 == 0x0A }) == lineEnds
    }

    @Test("a file with only bare LFs keeps its fingerprint: the one a server reports for the CR LF copy")
    func fingerprintAgrees() {
        var generator = SeededGenerator(state: 7)
        let failing = (0..<5_000).lazy.map { _ in Self.randomInput(using: &generator).filter { $0 != 0x0D } }
            .first { MessageFingerprint(message: $0) != MessageFingerprint(message: LineEnds.crlf($0)) }
        #expect(failing == nil, "\(failing ?? [])")
    }
}
