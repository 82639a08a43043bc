/// A piece of a query as the lexer cuts it, with the character offset it starts at.
struct SearchToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case openParen, closeParen
        case and, or, not
        /// `-` (not) or `+` (required, which is the default) right before a term or a group.
        case minus, plus
        /// An unquoted word: `budget`, `budg*`, `from:alice`, `date:2026-10-01..`.
        case word(String)
        /// `"quarterly report"`, with doubled quotes undone.
        case phrase(String)
        /// `subject:"budget plans"`: a prefix written right before a quoted value.
        case prefixedPhrase(prefix: String, value: String)
    }

    var kind: Kind
    var offset: Int
}
