import MailCore

/// The part of a search that the full-text index answers, as one FTS5 MATCH expression:
/// text terms joined by AND, OR and (after something positive) NOT. Every value goes in as
/// an FTS5 string (`"…"`, quotes doubled), so no query text is ever read as FTS5 syntax; the
/// index's tokenizer splits it into words, which makes `alice@example.com` the phrase
/// "alice example com", as in notmuch.
enum FullTextExpression {
    /// The expression for `query`, or nil when some part of it is not text (or is a NOT with
    /// nothing positive beside it, which FTS5 cannot say).
    static func make(_ query: SearchQuery) -> String? {
        switch query {
        case .term(.text(let field, let match)):
            return "{\(columns(field))} : \(quoted(match.text))" + (match.isPrefix ? " *" : "")
        case .or(let operands):
            return joined(operands.map(make), with: " OR ")
        case .and(let operands):
            return conjunction(operands)
        default:
            return nil
        }
    }

    /// `(a) AND (b) NOT (c)`: at least one operand must be positive.
    private static func conjunction(_ operands: [SearchQuery]) -> String? {
        var positive: [String?] = []
        var negative: [String?] = []
        for operand in operands {
            if case .not(let inner) = operand { negative.append(make(inner)) } else { positive.append(make(operand)) }
        }
        guard !positive.isEmpty, let included = joined(positive, with: " AND ") else { return nil }
        guard !negative.isEmpty else { return included }
        return joined(negative, with: " NOT ").map { "(\(included)) NOT \($0)" }
    }

    private static func joined(_ parts: [String?], with separator: String) -> String? {
        let present = parts.compactMap { $0 }
        guard present.count == parts.count else { return nil }
        return present.map { "(\($0))" }.joined(separator: separator)
    }

    /// Free text covers what notmuch's does, except MIME types ("text" would match all mail).
    static func columns(_ field: TextField) -> String {
        switch field {
        case .any: "subject sender recipients body attachments"
        case .from: "sender"
        case .to: "recipients"
        case .subject: "subject"
        case .body: "body"
        case .attachment: "attachments"
        case .mimetype: "mimetypes"
        }
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
