/// The preview line of a message: the first `length` characters of its text with quoted
/// lines (`> …`) left out and whitespace runs collapsed, so a reply previews what its
/// sender wrote rather than what it quotes. Quoted text is used only when nothing else is
/// there. Only as much of the body as the snippet needs is read.
public enum Snippet {
    static let length = 100

    static func make(from text: String?) -> String? {
        guard let text else { return nil }
        let own = collect(from: text, skippingQuotes: true)
        if !own.isEmpty { return own }
        let quoted = collect(from: text, skippingQuotes: false)
        return quoted.isEmpty ? nil : quoted
    }

    private static func collect(from text: String, skippingQuotes: Bool) -> String {
        var snippet = ""
        var count = 0
        var pendingSpace = false
        var rest = Substring(text)
        while count < length, !rest.isEmpty {
            let lineEnd = rest.firstIndex(where: \.isNewline) ?? rest.endIndex
            let line = rest[..<lineEnd]
            rest = lineEnd < rest.endIndex ? rest[rest.index(after: lineEnd)...] : ""
            if skippingQuotes, line.drop(while: \.isWhitespace).hasPrefix(">") { continue }
            pendingSpace = count > 0
            for character in line {
                guard count < length else { break }
                if character.isWhitespace {
                    pendingSpace = count > 0
                } else {
                    if pendingSpace {
                        guard count + 1 < length else { return snippet }
                        snippet.append(" ")
                        count += 1
                    }
                    pendingSpace = false
                    snippet.append(character)
                    count += 1
                }
            }
        }
        return snippet
    }
}
