/// Parses a query of notmuch's language (the subset in `SearchQuery`), with Xapian's
/// precedence: `OR` binds loosest, then `AND`, then `NOT` (binary: `a NOT b c` is
/// `a AND NOT (b AND c)`; at the start it negates what follows), then terms written side by
/// side (an implicit AND, in which terms of the same boolean-like prefix are ORed, as notmuch
/// does: `tag:unread tag:flagged` is either). `-term` negates one term or group.
///
/// Pure and bounded: a query is user input (a directory name, a command-line argument), so
/// its length, nesting and number of terms are capped, and every refusal says where.
public enum SearchParser {
    public static let maximumLength = 4096
    public static let maximumDepth = 32
    public static let maximumTerms = 256

    public static func parse(_ query: String) throws(SearchQueryError) -> SearchQuery {
        guard query.count <= maximumLength else {
            throw SearchQueryError(offset: maximumLength, "a query is at most \(maximumLength) characters")
        }
        var reader = QueryReader(tokens: try SearchLexer.tokens(query), end: query.count)
        guard let parsed = try reader.parseQuery() else {
            throw SearchQueryError(offset: 0, "the query has no search terms")
        }
        return parsed
    }
}

/// The recursive descent over the tokens. Every `parse…` returns nil for an operand that
/// holds nothing to search (`()`, a word without letters or digits), which drops out as
/// Xapian drops it.
struct QueryReader {
    let tokens: [SearchToken]
    /// The query's length: where "missing operand" errors point at the end.
    let end: Int
    private var position = 0
    private var depth = 0
    private var terms = 0

    init(tokens: [SearchToken], end: Int) {
        self.tokens = tokens
        self.end = end
    }

    mutating func parseQuery() throws(SearchQueryError) -> SearchQuery? {
        guard !tokens.isEmpty else { return nil }
        let query = try parseOr()
        if let extra = peek {
            throw SearchQueryError(offset: extra.offset, extra.kind == .closeParen ? "unmatched )" : "unexpected \(Self.describe(extra))")
        }
        return query
    }

    private var peek: SearchToken? { position < tokens.count ? tokens[position] : nil }

    private mutating func advance() -> SearchToken {
        defer { position += 1 }
        return tokens[position]
    }

    private mutating func parseOr() throws(SearchQueryError) -> SearchQuery? {
        try parseJoined(by: .or, as: .or) { (reader) throws(SearchQueryError) in try reader.parseAnd() }
    }

    private mutating func parseAnd() throws(SearchQueryError) -> SearchQuery? {
        try parseJoined(by: .and, as: .and) { (reader) throws(SearchQueryError) in try reader.parseNot() }
    }

    /// Operands separated by the operator `kind`, joined by `connective`.
    private mutating func parseJoined(by kind: SearchToken.Kind, as connective: SearchQuery.Connective,
                                      _ operand: (inout QueryReader) throws(SearchQueryError) -> SearchQuery?)
        throws(SearchQueryError) -> SearchQuery? {
        var operands = [try operand(&self)]
        while let token = peek, token.kind == kind {
            _ = advance()
            try requireOperand(after: token)
            operands.append(try operand(&self))
        }
        return SearchQuery.combined(connective, operands.compactMap { $0 })
    }

    /// `NOT x` at the start negates x; `x NOT y` is x AND NOT y.
    private mutating func parseNot() throws(SearchQueryError) -> SearchQuery? {
        if let token = peek, token.kind == .not {
            _ = advance()
            try requireOperand(after: token)
            return try nested(at: token) { (reader) throws(SearchQueryError) in try reader.parseNot() }.map(SearchQuery.not)
        }
        var operands = [try parseSequence()]
        while let token = peek, token.kind == .not {
            _ = advance()
            try requireOperand(after: token, allowingNot: false)
            operands.append(try parseSequence().map(SearchQuery.not))
        }
        return SearchQuery.combined(.and, operands.compactMap { $0 })
    }

    /// Items side by side: AND, except that terms sharing a grouping prefix are ORed.
    private mutating func parseSequence() throws(SearchQueryError) -> SearchQuery? {
        var groups = SequenceGroups()
        repeat {
            groups.add(try parseItem())
        } while peek.map(Self.startsItem) == true
        return groups.query
    }

    private mutating func parseItem() throws(SearchQueryError) -> SequenceItem? {
        guard let token = peek, Self.startsItem(token) else { throw missingOperand(at: peek) }
        _ = advance()
        switch token.kind {
        case .openParen:
            let inner = try nested(at: token) { (reader) throws(SearchQueryError) in try reader.parseGroup(opening: token) }
            return inner.map { SequenceItem(query: $0, group: nil) }
        case .minus, .plus:
            try requireOperand(after: token, allowingNot: false)
            let operand = try nested(at: token) { (reader) throws(SearchQueryError) in try reader.parseItem() }
            return operand.map { SequenceItem(query: token.kind == .minus ? .not($0.query) : $0.query, group: nil) }
        default:
            terms += 1
            guard terms <= SearchParser.maximumTerms else {
                throw SearchQueryError(offset: token.offset, "a query has at most \(SearchParser.maximumTerms) terms")
            }
            return try SearchTermReader.item(token)
        }
    }

    /// After `(`: the inner query up to its `)`; `()` holds nothing.
    private mutating func parseGroup(opening: SearchToken) throws(SearchQueryError) -> SearchQuery? {
        if let token = peek, token.kind == .closeParen {
            _ = advance()
            return nil
        }
        let inner = try parseOr()
        guard let token = peek, token.kind == .closeParen else { throw SearchQueryError(offset: opening.offset, "unmatched (") }
        _ = advance()
        return inner
    }

    /// Runs `body` one level deeper; a query nested beyond `maximumDepth` is refused before
    /// the recursion can exhaust the stack.
    private mutating func nested<T>(at token: SearchToken,
                                    _ body: (inout QueryReader) throws(SearchQueryError) -> T) throws(SearchQueryError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= SearchParser.maximumDepth else {
            throw SearchQueryError(offset: token.offset, "the query is nested more than \(SearchParser.maximumDepth) levels deep")
        }
        return try body(&self)
    }

    /// An operator must be followed by a term; `AND NOT`, `OR NOT` and `NOT NOT` are fine.
    private func requireOperand(after token: SearchToken, allowingNot: Bool = true) throws(SearchQueryError) {
        guard let next = peek, Self.startsItem(next) || (allowingNot && next.kind == .not) else {
            throw SearchQueryError(offset: token.offset, "\(Self.describe(token)) needs a search term after it")
        }
    }

    private func missingOperand(at token: SearchToken?) -> SearchQueryError {
        guard let token else { return SearchQueryError(offset: end, "a search term is missing at the end") }
        switch token.kind {
        case .closeParen: return SearchQueryError(offset: token.offset, "unmatched )")
        default: return SearchQueryError(offset: token.offset, "\(Self.describe(token)) needs a search term before it")
        }
    }

    static func startsItem(_ token: SearchToken) -> Bool {
        switch token.kind {
        case .and, .or, .not, .closeParen: false
        default: true
        }
    }

    static func describe(_ token: SearchToken) -> String {
        switch token.kind {
        case .and: "AND"
        case .or: "OR"
        case .not: "NOT"
        case .minus: "-"
        case .plus: "+"
        case .openParen: "("
        case .closeParen: ")"
        case .word(let text): "\"\(text)\""
        case .phrase(let text), .prefixedPhrase(_, let text): "\"\(text)\""
        }
    }
}

/// One operand of a sequence; `group` names the prefix it is ORed with (`tag`, `from`…).
struct SequenceItem {
    var query: SearchQuery
    var group: String?
}

/// The operands of a sequence in order, terms of one group gathered at the first one's place.
private struct SequenceGroups {
    private var operands: [[SearchQuery]] = []
    private var indexByGroup: [String: Int] = [:]

    mutating func add(_ item: SequenceItem?) {
        guard let item else { return }
        if let group = item.group, let index = indexByGroup[group] {
            operands[index].append(item.query)
            return
        }
        if let group = item.group { indexByGroup[group] = operands.count }
        operands.append([item.query])
    }

    var query: SearchQuery? {
        SearchQuery.combined(.and, operands.compactMap { SearchQuery.combined(.or, $0) })
    }
}

extension SearchQuery {
    enum Connective { case and, or }

    /// `operands` joined: nil when empty, the operand alone, or one flat AND/OR.
    static func combined(_ connective: Connective, _ operands: [SearchQuery]) -> SearchQuery? {
        var flat: [SearchQuery] = []
        for operand in operands {
            switch (connective, operand) {
            case (.and, .and(let inner)), (.or, .or(let inner)): flat += inner
            default: flat.append(operand)
            }
        }
        guard flat.count > 1 else { return flat.first }
        return connective == .and ? .and(flat) : .or(flat)
    }
}
