/// The preview line of a message: the first characters of its text with quoted lines
/// (`> …`) left out and whitespace runs collapsed, so a reply previews what its sender
/// wrote rather than what it quotes. Quoted text is used only when nothing else is there.
/// Only as much of the body as the preview needs is read. A thread's snippet is its latest
/// message's (`ThreadMetadata`).
public enum Snippet {
    /// The preview of a message: the start of its plain text (or of its HTML turned to
    /// text), at most `limit` characters cut on a character boundary; the subject when the
    /// message has no text.
    public static func make(plain: String?, html: String?, fallback subject: String, limit: Int = 100) -> String {
        let text = preview(plain, limit: limit)
        if !text.isEmpty { return text }
        let fromHTML = preview(html.map { HTMLText.plainText(fromHTML: String($0.prefix(maxHTMLScanned))) }, limit: limit)
        return fromHTML.isEmpty ? preview(subject, limit: limit) : fromHTML
    }

    /// How much of an HTML body is converted to find its first words.
    static let maxHTMLScanned = 256 * 1024

    /// The sender's own lines, or when there are none, the quoted ones.
    private static func preview(_ text: String?, limit: Int) -> String {
        guard let text, limit > 0 else { return "" }
        let own = collect(text, limit: limit, skippingQuotes: true)
        return own.isEmpty ? collect(text, limit: limit, skippingQuotes: false) : own
    }

    /// The first `limit` characters of `text`'s lines (but quoted ones when
    /// `skippingQuotes`), whitespace runs and line breaks collapsed to one space.
    private static func collect(_ text: String, limit: Int, skippingQuotes: Bool) -> String {
        var result = ""
        var count = 0
        var pendingSpace = false
        var rest = Substring(text)
        while !rest.isEmpty {
            let lineEnd = rest.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            let line = rest[..<lineEnd]
            rest = lineEnd < rest.endIndex ? rest[rest.utf8.index(after: lineEnd)...] : ""
            if skippingQuotes && isQuoted(line) { continue }
            pendingSpace = count > 0
            for character in line {
                if isBlank(character) {
                    pendingSpace = count > 0
                    continue
                }
                let needed = pendingSpace ? 2 : 1
                guard count + needed <= limit else { return result }
                if pendingSpace { result.append(" ") }
                result.append(character)
                count += needed
                pendingSpace = false
            }
        }
        return result
    }

    /// A line whose first non-blank character is `>`.
    private static func isQuoted(_ line: Substring) -> Bool {
        line.utf8.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") } == UInt8(ascii: ">")
    }

    /// Whitespace or a control character. ASCII is answered from its byte: Unicode's
    /// whitespace property is a table search per character, a tenth of a sync's parsing.
    static func isBlank(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return ascii <= 0x20 }
        return character.isWhitespace || character.unicodeScalars.allSatisfy { $0.value < 0x20 }
    }
}
