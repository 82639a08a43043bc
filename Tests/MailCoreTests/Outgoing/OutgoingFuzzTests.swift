import Foundation
import Testing
import TestSupport
@testable import MailCore

/// Deterministic fuzzing: random bytes, random header-ish text and mutations
/// of valid messages. Every input gives a rejection or a message that passes
/// `checkSendable`; none crashes or hangs. Same seed, same run.
@Suite("Outgoing: seeded fuzzing")
struct OutgoingFuzzTests {
    typealias Fixtures = OutgoingFixtures
    typealias Generator = SeededGenerator

    static let validMessages = [
        "To: Bob <bob@example.org>\nSubject: Lunch?\n\nNoon at the usual place?\n",
        "From: Alice <alice@example.org>\nTo: Team: a@example.org, b@example.org;\nCc: c@example.org\n"
            + "Bcc: d@example.org\nSubject: Re: Déjà vu 🎉\nX-Note: prêt\n\nGrüße\r\n.\r\nend",
        "To: \"Müller, Jürgen\" <jm@example.org> (Büro)\r\nSubject: =?utf-8?q?Caf=C3=A9?= ok\r\n"
            + "MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\n"
            + "Content-Type: text/plain\r\n\r\nplain\r\n--b--\r\n",
        "Bcc: x@example.org\nReferences: <a@b> <c@d>\n\n" + String(repeating: "long ", count: 300) + "\n",
    ]

    @Test("random bytes are refused or prepared, never a crash")
    func randomBytes() {
        var generator = Generator(state: 0x6F75_7462_6F78)
        var accepted = 0
        for _ in 0..<3000 {
            let count = Int.random(in: 0...600, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if case .success(let message) = Fixtures.prepare(bytes) {
                Fixtures.checkSendable(message)
                accepted += 1
            }
        }
        #expect(accepted == 0, "random bytes are not mail")
    }

    static let names = ["To", "Cc", "Bcc", "From", "Subject", "X-A", "Reply-To", "Keywords", "Content-Type", "Date",
                        "Message-ID", "Bad Name", ""]
    static let valuePieces = [" ", "\t", ",", ";", ":", "<", ">", "\"", "(", ")", "@", ".", "\\", "x", "Bob",
                              "b@example.org", "alice@example.org", "é", "日本", "🎉", "=?utf-8?q?", "=?utf-8?b?", "?=",
                              "=C3=A9", "=0A", "w6k=", "text/plain", "<id@host>"]
    static let rarePieces = ["\r", "\0", "\u{7F}", "\n", "\n ", "\u{FEFF}", String(repeating: "y", count: 1000)]
    static let bodyPieces = ["hello", " ", "é", "\n", "\r\n", "\t", ".", "=", "\u{1}", String(repeating: "z", count: 500)]

    static func piece(_ pieces: [String], using generator: inout Generator) -> String {
        if Int.random(in: 0..<25, using: &generator) == 0 { return rarePieces.randomElement(using: &generator) ?? "" }
        return pieces.randomElement(using: &generator) ?? ""
    }

    /// A message built line by line from plausible and hostile pieces.
    static func headerShaped(using generator: inout Generator) -> String {
        var text = Bool.random(using: &generator) ? "To: b@example.org\n" : ""
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            let isContinuation = Int.random(in: 0..<8, using: &generator) == 0
            text += isContinuation ? " " : (names.randomElement(using: &generator) ?? "") + ": "
            for _ in 0..<Int.random(in: 0...8, using: &generator) { text += piece(valuePieces, using: &generator) }
            text += Bool.random(using: &generator) ? "\n" : "\r\n"
        }
        text += ["\n", "\r\n", " \n", ""].randomElement(using: &generator) ?? ""
        for _ in 0..<Int.random(in: 0...10, using: &generator) { text += piece(bodyPieces, using: &generator) }
        return text
    }

    @Test("random header-shaped text is refused or prepared correctly")
    func headerShapedText() {
        var generator = Generator(state: 0x6865_6164)
        var accepted = 0
        var reasons: Set<String> = []
        for _ in 0..<4000 {
            switch Fixtures.prepare(Self.headerShaped(using: &generator)) {
            case .success(let message):
                Fixtures.checkSendable(message)
                accepted += 1
            case .failure(let rejection):
                reasons.insert(String(describing: rejection).prefix { $0 != "(" }.description)
            }
        }
        #expect(accepted > 400, "the generator reaches accepted messages (\(accepted))")
        #expect(reasons.count > 10, "and many kinds of rejection: \(reasons.sorted())")
    }

    @Test("mutated valid messages are refused or prepared correctly, and deterministically")
    func mutations() {
        var generator = Generator(state: 0x6D75_7461_7465)
        var accepted = 0
        for iteration in 0..<3000 {
            let source = Array(Self.validMessages[iteration % Self.validMessages.count].utf8)
            let mutated = MutationFuzzTests.mutate(source, using: &generator)
            let result = Fixtures.prepare(mutated)
            if case .success(let message) = result {
                Fixtures.checkSendable(message)
                accepted += 1
            }
            if iteration % 10 == 0 { #expect(Fixtures.prepare(mutated) == result) }
        }
        #expect(accepted > 300)
    }

    @Test("a prepared message without Bcc prepared again is unchanged")
    func idempotent() throws {
        for text in Self.validMessages where !text.contains("Bcc") {
            let once = try #require(Fixtures.prepared(text))
            let twice = try Fixtures.prepare(once.data).get()
            #expect(twice == once)
        }
    }
}
