extension Snippet {
    /// The preview of a message: the start of its plain text (or of its HTML
    /// turned to text), whitespace collapsed, at most `limit` characters cut
    /// on a character boundary; the subject when the message has no text.
    public static func make(plain: String?, html: String?, fallback subject: String, limit: Int = 100) -> String {
        let text = preview(plain, limit: limit)
        if !text.isEmpty { return text }
        let fromHTML = preview(html.map { HTMLText.plainText(fromHTML: String($0.prefix(maxHTMLScanned))) }, limit: limit)
        return fromHTML.isEmpty ? preview(subject, limit: limit) : fromHTML
    }

    /// How much of an HTML body is converted to find its first words.
    static let maxHTMLScanned = 256 * 1024

    /// The first `limit` characters with whitespace runs collapsed, reading
    /// only as much of `text` as needed.
    private static func preview(_ text: String?, limit: Int) -> String {
        guard let text, limit > 0 else { return "" }
        var result = ""
        var count = 0
        var pendingSpace = false
        for character in text {
            if isBlank(character) {
                pendingSpace = count > 0
                continue
            }
            let needed = pendingSpace ? 2 : 1
            guard count + needed <= limit else { break }
            if pendingSpace { result.append(" ") }
            result.append(character)
            count += needed
            pendingSpace = false
        }
        return result
    }

    /// Whitespace or a control character. ASCII is answered from its byte: Unicode's
    /// whitespace property is a table search per character, a tenth of a sync's parsing.
    static func isBlank(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return ascii <= 0x20 }
        return character.isWhitespace || character.unicodeScalars.allSatisfy { $0.value < 0x20 }
    }
}
