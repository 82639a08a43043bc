import Foundation

/// The "base subject" that subject-fallback threading compares and thread directories
/// are named after: RFC 5256 §2.1 extended with the reply/forward prefixes of common
/// non-English mail clients (FR-SYNC-06 step 4.1).
///
/// Steps, repeated until nothing changes:
/// - whitespace runs (tabs, folded line breaks, control characters) become one space;
/// - trailing `(fwd)` markers and spaces are removed;
/// - leading reply/forward prefixes are removed case-insensitively: a word of
///   `ReplyPrefixes.words`, an optional counter (`Re[2]:`, `Re(2):`), optional spaces, an
///   optional `[tag]`, then `:` or a full-width `：` (`Re :`, `AW:`, `Réf.` included);
/// - leading `[tag]` blobs are removed when something remains after them, as RFC 5256
///   step 4 does: `[notmuch] Lunch` and `Lunch` are the same conversation when a list
///   tag is added by the list for some recipients and not for others, and `[xyz]`
///   alone stays `[xyz]`;
/// - a `[fwd: …]` wrapper is unwrapped.
///
/// Case is kept for display; `threadingKey` folds it for comparison (RFC 5256 compares
/// base subjects case-insensitively: `C` and `Re: c` are one ORDEREDSUBJECT thread).
///
///     SubjectNormalizer.normalize("Re: [notmuch] AW: Lunch plans (fwd)")   // "Lunch plans"
public enum SubjectNormalizer {
    public static func normalize(_ subject: String) -> String {
        var text = SubjectText(collapsing: subject)
        var changed = true
        while changed {
            changed = text.dropTrailingForwardMarkers()
            changed = text.dropLeaders() || changed
            changed = text.unwrapForwardBrackets() || changed
        }
        return text.string
    }

    /// The comparison key of the subject fallback: the normalized subject, case-folded.
    /// Empty when the subject has no content, and an empty key never groups.
    public static func threadingKey(_ subject: String) -> String {
        normalize(subject).lowercased()
    }
}

/// Reply and forward prefixes (lower-case, NFC) that clients put before a subject.
enum ReplyPrefixes {
    struct Word {
        var scalars: [Unicode.Scalar]
        /// May end with a full stop instead of a colon (`Réf. Lunch`).
        var allowsDot: Bool
    }

    static let words: [String] = [
        "re", "fw", "fwd",              // English, RFC 5256
        "aw", "wg",                     // German: Antwort, Weitergeleitet
        "antw",                         // Dutch
        "sv", "vs", "vl",               // Scandinavian/Finnish: svar, vastaus, välitetty
        "tr", "réf",                    // French: transféré, référence
        "rif", "r",                     // Italian
        "res", "enc",                   // Portuguese: resposta, encaminhado
        "odp", "pd",                    // Polish
        "ynt", "ilt",                   // Turkish
        "atb",                          // Latvian
        "回复", "回覆", "答复", "转发", "轉寄", // Chinese
    ]

    /// The words grouped by their first scalar, so most subjects are checked with one lookup.
    static let byFirstScalar: [Unicode.Scalar: [Word]] = {
        var table: [Unicode.Scalar: [Word]] = [:]
        for word in words {
            let scalars = Array(word.unicodeScalars)
            guard let first = scalars.first else { continue }
            table[first, default: []].append(Word(scalars: scalars, allowsDot: word == "réf"))
        }
        return table
    }()
}
