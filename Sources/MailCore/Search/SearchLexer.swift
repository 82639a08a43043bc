/// Cuts a query into tokens as Xapian's query parser (notmuch's) reads it: words end at
/// white space or a parenthesis, `"…"` is a phrase (`""` inside is a quote), `-`/`+` before
/// a term or a group negate or require it, and `AND`/`OR`/`NOT` in any case are operators.
struct SearchLexer {
    private let characters: [Character]
    private var index = 0

    init(_ query: String) {
        characters = Array(query)
    }

    /// Every token of the query, in order.
    static func tokens(_ query: String) throws(SearchQueryError) -> [SearchToken] {
        var lexer = SearchLexer(query)
        var tokens: [SearchToken] = []
        while let token = try lexer.next() { tokens.append(token) }
        return tokens
    }

    mutating func next() throws(SearchQueryError) -> SearchToken? {
        while index < characters.count, Self.isSpace(characters[index]) { index += 1 }
        guard index < characters.count else { return nil }
        let start = index
        switch characters[index] {
        case "(":
            index += 1
            return SearchToken(kind: .openParen, offset: start)
        case ")":
            index += 1
            return SearchToken(kind: .closeParen, offset: start)
        case "\"":
            return SearchToken(kind: .phrase(try quoted()), offset: start)
        case "-" where startsOperand(at: index + 1):
            index += 1
            return SearchToken(kind: .minus, offset: start)
        case "+" where startsOperand(at: index + 1):
            index += 1
            return SearchToken(kind: .plus, offset: start)
        default:
            return SearchToken(kind: try word(), offset: start)
        }
    }

    /// A word, an operator, or a prefix followed by a quoted value (`subject:"a b"`).
    private mutating func word() throws(SearchQueryError) -> SearchToken.Kind {
        var text = ""
        while index < characters.count {
            let character = characters[index]
            if Self.isSpace(character) || character == "(" || character == ")" || character == "\"" { break }
            text.append(character)
            index += 1
            if character == ":", index < characters.count, characters[index] == "\"", Self.isPrefixName(text.dropLast()) {
                return .prefixedPhrase(prefix: String(text.dropLast()), value: try quoted())
            }
        }
        switch text.lowercased() {
        case "and": return .and
        case "or": return .or
        case "not": return .not
        default: return .word(text)
        }
    }

    /// The text between the quote at `index` and its closing quote; `""` stands for `"`.
    private mutating func quoted() throws(SearchQueryError) -> String {
        let opening = index
        index += 1
        var text = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            guard character == "\"" else {
                text.append(Self.isSpace(character) ? " " : character)
                continue
            }
            guard index < characters.count, characters[index] == "\"" else { return text }
            text.append("\"")
            index += 1
        }
        throw SearchQueryError(offset: opening, "unterminated quote")
    }

    /// Whether a `-` or `+` at `index - 1` binds to what follows (`-budget`, `-(a b)`) rather
    /// than standing alone.
    private func startsOperand(at position: Int) -> Bool {
        guard position < characters.count else { return false }
        let character = characters[position]
        return !Self.isSpace(character) && character != ")"
    }

    static func isPrefixName(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// White space and control characters (a NUL included) separate words.
    static func isSpace(_ character: Character) -> Bool {
        character.isWhitespace || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
