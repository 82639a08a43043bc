import Foundation
import Testing
import TestSupport
@testable import MailCore

/// Random short strings over the characters the header parsers care about,
/// fed to every parser: none may crash. Seeded, so a failure reproduces.
@Suite("Seeded random header values")
struct FieldFuzzTests {
    static let iterations = 20_000
    static let alphabet = Array("=?\"<>()@,;:\\ \t\r\nabcQB_%*'0123456789+-/.&#x;é\u{0}".unicodeScalars)

    @Test("every header parser survives random values")
    func parsersSurvive() {
        var generator = SeededGenerator(state: 0x6669_656C_64)
        for _ in 0..<Self.iterations {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...60, using: &generator) {
                scalars.append(Self.alphabet.randomElement(using: &generator) ?? " ")
            }
            let value = String(scalars)
            _ = AddressParser.parseList(value)
            _ = DateParser.parse(value)
            _ = ContentType.parse(value)
            _ = ContentDisposition.parse(value)
            _ = MessageIDList.parse(value)
            _ = HTMLText.plainText(fromHTML: value)
            #expect(!HeaderText.unstructured(value).contains("\n"))
            #expect(Snippet.make(plain: value, html: value, fallback: value, limit: 5).count <= 5)
            checkInvariants(MessageParser.parse(Array(value.utf8)), raw: Array(value.utf8), name: value.debugDescription)
        }
    }
}
