/// Turns one word or phrase of a query into a term, by its prefix. notmuch's names are
/// read in any case; a `name:` that is no prefix at all is plain text, as in notmuch
/// (`re:budget` looks for the words "re budget").
enum SearchTermReader {
    /// The prefixes mailfs serves, and the sequence group each belongs to: notmuch ORs
    /// terms of its boolean and "special" prefixes written side by side, and ANDs the rest.
    enum Prefix: String, CaseIterable {
        case from, to, subject, body, attachment, mimetype
        case tag, `is`, has, id, mid, thread, folder, date

        var group: String? {
            switch self {
            case .from, .subject, .thread, .folder, .date: rawValue
            case .tag, .is, .has: "tag"
            case .id, .mid: "id"
            case .to, .body, .attachment, .mimetype: nil
            }
        }
    }

    /// notmuch prefixes mailfs does not serve, with a hint.
    static let unsupported: [String: String] = [
        "path": "path: is not supported; use folder:",
        "lastmod": "lastmod: is not supported",
        "property": "property: is not supported",
        "query": "query: is not supported; saved searches are listed in search/",
        "sexp": "sexp: is not supported",
    ]

    static func item(_ token: SearchToken) throws(SearchQueryError) -> SequenceItem? {
        switch token.kind {
        case .phrase(let text):
            return plain(textTerm(.any, TextMatch(text)))
        case .prefixedPhrase(let prefix, let value):
            return try prefixed(prefix, value: value, quoted: true, offset: token.offset)
        case .word("*"):
            return SequenceItem(query: .everything, group: nil)
        case .word(let word):
            if let colon = word.firstIndex(of: ":"), SearchLexer.isPrefixName(word[..<colon]) {
                let name = String(word[..<colon])
                return try prefixed(name, value: String(word[word.index(after: colon)...]), quoted: false, offset: token.offset)
            }
            return plain(textTerm(.any, match(word, quoted: false)))
        default:
            return nil
        }
    }

    private static func prefixed(_ name: String, value: String, quoted: Bool,
                                 offset: Int) throws(SearchQueryError) -> SequenceItem? {
        let valueOffset = offset + name.count + (quoted ? 2 : 1)
        if let hint = unsupported[name.lowercased()] { throw SearchQueryError(offset: offset, hint) }
        guard let prefix = Prefix(rawValue: name.lowercased()) else {
            return plain(textTerm(.any, TextMatch(name + " " + value)))
        }
        guard !value.isEmpty else { throw SearchQueryError(offset: offset, "\(prefix.rawValue): needs a value") }
        if !quoted, value.count > 1, value.hasPrefix("/"), value.hasSuffix("/") {
            throw SearchQueryError(offset: valueOffset, "regular expressions (/…/) are not supported")
        }
        guard let term = try term(prefix, value: value, quoted: quoted, offset: valueOffset) else { return nil }
        return SequenceItem(query: term, group: prefix.group)
    }

    private static func term(_ prefix: Prefix, value: String, quoted: Bool,
                             offset: Int) throws(SearchQueryError) -> SearchQuery? {
        switch prefix {
        case .from: return textTerm(.from, match(value, quoted: quoted))
        case .to: return textTerm(.to, match(value, quoted: quoted))
        case .subject: return textTerm(.subject, match(value, quoted: quoted))
        case .body: return textTerm(.body, match(value, quoted: quoted))
        case .attachment: return textTerm(.attachment, match(value, quoted: quoted))
        case .mimetype: return textTerm(.mimetype, match(value, quoted: quoted))
        case .tag, .is, .has:
            guard let tag = MessageTag(rawValue: value.lowercased()) else {
                let known = MessageTag.allCases.map(\.rawValue).joined(separator: ", ")
                throw SearchQueryError(offset: offset, "unknown tag \"\(value)\" (mailfs knows \(known))")
            }
            return .term(.tag(tag))
        case .id, .mid:
            let bare = value.hasPrefix("<") && value.hasSuffix(">") && value.count > 2 ? String(value.dropFirst().dropLast()) : value
            return .term(.messageID(bare))
        case .thread:
            guard !value.hasPrefix("{") else { throw SearchQueryError(offset: offset, "thread:{…} subqueries are not supported") }
            return .term(.thread(value))
        case .folder:
            return .term(.folder(value))
        case .date:
            switch DateRange.parse(value) {
            case .success(let range): return .term(.date(range))
            case .failure(let error): throw SearchQueryError(offset: offset, error.message)
            }
        }
    }

    /// A trailing `*` on an unquoted word asks for words starting with the rest.
    private static func match(_ value: String, quoted: Bool) -> TextMatch {
        guard !quoted, value.count > 1, value.hasSuffix("*") else { return TextMatch(value) }
        return TextMatch(String(value.dropLast()), isPrefix: true)
    }

    /// A text term, or nil when it holds no letter or digit: the index has no word to look
    /// for, and Xapian leaves such a term out.
    private static func textTerm(_ field: TextField, _ match: TextMatch) -> SearchQuery? {
        guard match.text.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
        return .term(.text(field, match))
    }

    private static func plain(_ query: SearchQuery?) -> SequenceItem? {
        query.map { SequenceItem(query: $0, group: nil) }
    }
}
