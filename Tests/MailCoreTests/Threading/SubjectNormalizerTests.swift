import TestSupport
import Testing
@testable import MailCore

@Suite("Subject normalization (base subject)")
struct SubjectNormalizerTests {
    @Test("reply and forward prefixes are stripped, recursively and case-insensitively", arguments: [
        ("Re: Lunch plans", "Lunch plans"),
        ("RE: Lunch plans", "Lunch plans"),
        ("re:Lunch plans", "Lunch plans"),
        ("Fwd: Lunch plans", "Lunch plans"),
        ("FW: Fw: fwd: Lunch plans", "Lunch plans"),
        ("Re: Re: Re: Lunch plans", "Lunch plans"),
        ("Re[2]: Lunch plans", "Lunch plans"),
        ("Re(2): Lunch plans", "Lunch plans"),
        ("Re : Lunch plans", "Lunch plans"),
        ("RE : TR : Lunch plans", "Lunch plans"),
        ("AW: WG: Lunch plans", "Lunch plans"),
        ("SV: VS: Antw: Lunch plans", "Lunch plans"),
        ("RIF: R: Lunch plans", "Lunch plans"),
        ("Réf. Lunch plans", "Lunch plans"),
        ("RÉF : Lunch plans", "Lunch plans"),
        ("回复：Lunch plans", "Lunch plans"),
        ("Odp: Ynt: Res: Enc: Lunch plans", "Lunch plans"),
        ("Re [list]: Lunch plans", "Lunch plans"),
    ])
    func stripsPrefixes(subject: String, expected: String) {
        #expect(SubjectNormalizer.normalize(subject) == expected)
    }

    @Test("list tags, (fwd) trailers and [fwd: …] wrappers follow RFC 5256", arguments: [
        ("[notmuch] Working with Maildir storage?", "Working with Maildir storage?"),
        ("Re: [notmuch] [PATCH] Fix typo", "Fix typo"),
        ("[xyz]", "[xyz]"),
        ("[a] [b]", "[b]"),
        ("Lunch (fwd)", "Lunch"),
        ("Lunch (FWD)  (fwd) ", "Lunch"),
        ("[Fwd: Lunch]", "Lunch"),
        ("re: [fwd: [fwd: re: [fwd: babylon]]]", "babylon"),
    ])
    func rfc5256Rules(subject: String, expected: String) {
        #expect(SubjectNormalizer.normalize(subject) == expected)
    }

    @Test("words that only begin like a prefix are kept", arguments: [
        "Rex: the dog", "Ad: Re: Ad: x", "Fwding rules", "Research: results", "Tram: late", "Re", "VSCode tips",
    ])
    func keepsLookalikes(subject: String) {
        #expect(SubjectNormalizer.normalize(subject) == subject)
    }

    @Test("whitespace and control runs collapse to one space and are trimmed")
    func collapsesWhitespace() {
        #expect(SubjectNormalizer.normalize("  Re:\tLunch\r\n   plans\u{0}now  ") == "Lunch plans now")
        #expect(SubjectNormalizer.normalize("Re: \u{00A0}Caf\u{0065}\u{0301}") == "Café")
    }

    @Test("subjects without content normalize to the empty string", arguments: [
        "", "   ", "Re:", "Re: Fwd: ", "RE: (fwd)",
    ])
    func emptyResults(subject: String) {
        #expect(SubjectNormalizer.normalize(subject).isEmpty)
        #expect(SubjectNormalizer.threadingKey(subject).isEmpty)
    }

    @Test("the threading key folds case, the normalized subject keeps it")
    func threadingKeyFoldsCase() {
        #expect(SubjectNormalizer.normalize("RE: Lunch PLANS") == "Lunch PLANS")
        #expect(SubjectNormalizer.threadingKey("RE: Lunch PLANS") == "lunch plans")
    }

    @Test("hostile subjects normalize quickly and never crash")
    func hostileSubjects() {
        let hostile = [
            String(repeating: "Re: ", count: 250_000),
            String(repeating: "[fwd: ", count: 100_000) + "x" + String(repeating: "]", count: 100_000),
            String(repeating: "[", count: 200_000),
            "Re(" + String(repeating: "9", count: 100_000),
            String(repeating: "(fwd)", count: 100_000),
        ]
        let elapsed = ThreadCPUClock.measure {
            for subject in hostile { _ = SubjectNormalizer.normalize(subject) }
        }
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }
}
