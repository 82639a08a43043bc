import Foundation
import Testing
@testable import MailCore

@Suite("Sanitizing untrusted name components")
struct SanitizeTests {
    @Test("the ASCII shortcut classifies every ASCII scalar as Unicode's properties do")
    func asciiShortcut() {
        for value in 0..<128 {
            let scalar = Unicode.Scalar(UInt8(value))
            #expect(ScalarSafety.classify(scalar) == ScalarSafety.classifyByProperties(scalar), "U+\(String(value, radix: 16))")
        }
    }

    @Test("hostile components become one safe name", arguments: [
        ("../../etc/passwd", "___.._etc_passwd"),
        ("/", "_"),
        (".", "_"),
        ("..", "__"),
        ("...", "___"),
        ("   ", "_"),
        ("", "_"),
        (".hidden", "_hidden"),
        ("-rf", "_rf"),
        ("report. . .", "report"),
        ("a\u{0}b\u{7}c\u{7F}d\u{9B}e", "a_b_c_d_e"),
        ("line\nbreak\r\n\ttab", "line break tab"),
        ("evil\u{202E}fdp.exe", "evilfdp.exe"),
        ("in\u{2066}vis\u{200B}ible\u{FEFF}", "invisible"),
        ("Caf\u{65}\u{301}", "Caf\u{E9}"),
        ("نص عربي.pdf", "نص عربي.pdf"),
        ("👩‍👩‍👧 family", "👩‍👩‍👧 family"),
        ("a\u{00A0}\u{2028}b", "a b"),
    ])
    func hostileComponent(input: String, expected: String) {
        #expect(FileNamer.sanitize(input) == expected)
    }

    @Test("a 1000-character subject gives a name of at most 255 bytes")
    func longSubject() {
        let name = FileNamer.messageFileName(date: Date(timeIntervalSince1970: 0), from: "Bob",
                                             subject: String(repeating: "Ω", count: 1000))
        #expect(name.utf8.count <= 255)
        #expect(name.hasPrefix("1970-01-01 0000 Bob - ΩΩ"))
        #expect(name.hasSuffix("Ω.eml"))
    }

    @Test("random hostile text always yields a safe, stable name")
    func randomHostileText() {
        var generator = ThreadGrouperTests.SeededGenerator(seed: 7)
        for _ in 0..<600 {
            let length = Int.random(in: 0...400, using: &generator)
            let text = String((0..<length).map { _ in Self.nasty.randomElement(using: &generator) ?? "a" })
            let sanitized = FileNamer.sanitize(text)
            expectSafe(sanitized, from: text)
            #expect(FileNamer.sanitize(sanitized) == sanitized, "not idempotent for \(text.debugDescription)")
            let message = FileNamer.messageFileName(date: Date(timeIntervalSince1970: 0), from: text, subject: text)
            expectSafe(message, from: text)
            #expect(message.hasSuffix(".eml"))
            let thread = FileNamer.threadDirectoryName(date: Date(timeIntervalSince1970: 0), subject: text)
            expectSafe(thread, from: text)
            expectSafe(FileNamer.disambiguate(message, attempt: 99), from: text)
        }
    }

    private func expectSafe(_ name: String, from input: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let problems = Self.problems(of: name)
        #expect(problems.isEmpty, "\(problems) in \(name.debugDescription) from \(input.debugDescription)",
                sourceLocation: sourceLocation)
    }

    private static func problems(of name: String) -> [String] {
        var problems: [String] = []
        if name.isEmpty || name == "." || name == ".." { problems.append("reserved name") }
        if name.utf8.count > 255 { problems.append("over 255 bytes") }
        if name.hasPrefix(".") || name.hasPrefix("-") { problems.append("bad start") }
        if name.hasSuffix(".") || name.hasSuffix(" ") || name.hasPrefix(" ") { problems.append("bad end") }
        if name.contains("  ") { problems.append("double space") }
        if name != name.precomposedStringWithCanonicalMapping { problems.append("not NFC") }
        for scalar in name.unicodeScalars {
            let category = scalar.properties.generalCategory
            if scalar == "/" || category == .control || (category == .format && scalar != "\u{200D}" && scalar != "\u{200C}")
                || (scalar.properties.isWhitespace && scalar != " ") {
                problems.append("unsafe scalar U+\(String(scalar.value, radix: 16))")
            }
        }
        return problems
    }

    private static let nasty: [Character] = [
        "/", ".", ".", " ", " ", "\0", "\u{1}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{202E}", "\u{2066}",
        "\u{200B}", "\u{FEFF}", "\u{AD}", "\u{200D}", "\u{E0041}", "\u{2028}", "\u{3000}", "\n", "\r\n", "\t",
        "-", "~", "a", "Z", "é", "e\u{301}", "ש", "👩‍👩‍👧", "🇫🇷", "漢", "\u{301}", "[", "]", ":", "*", "?",
    ]
}
