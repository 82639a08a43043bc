/// Strings and lists: quoted strings, literals, NIL, and parenthesised lists.
extension ResponseReader {
    /// string = quoted / literal; astring = 1*ASTRING-CHAR / string
    ///
    /// Liberal: an atom is accepted wherever a string is expected.
    mutating func readAStringBytes() throws(IMAPParseError) -> ArraySlice<UInt8> {
        switch peek() {
        case Byte.quote?: return try readQuoted()
        case Byte.openBrace?, Byte.tilde?: return try readLiteral()
        default: return try readAtomBytes()
        }
    }

    mutating func readAString() throws(IMAPParseError) -> String {
        String(decoding: try readAStringBytes(), as: UTF8.self)
    }

    /// nstring = string / nil
    mutating func readNStringBytes() throws(IMAPParseError) -> ArraySlice<UInt8>? {
        if consumeKeyword("NIL") { return nil }
        return try readAStringBytes()
    }

    mutating func readNString() throws(IMAPParseError) -> String? {
        try readNStringBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// quoted = DQUOTE *QUOTED-CHAR DQUOTE; QUOTED-CHAR = <any TEXT-CHAR except
    /// quoted-specials> / "\" quoted-specials
    ///
    /// Liberal: 8-bit bytes and CR/LF are kept; a `"` that is not followed by a
    /// delimiter (SP, `(`, `)`, `]`, end) is taken as part of the text (iCloud
    /// Message-IDs, 163.com's `""""`); a backslash before anything else is kept.
    mutating func readQuoted() throws(IMAPParseError) -> ArraySlice<UInt8> {
        let open = position
        try expect(Byte.quote, "a quoted string")
        let start = position
        var unescaped: [UInt8]?
        while position < end {
            let byte = bytes[position]
            if byte == Byte.backslash, position + 1 < end,
               bytes[position + 1] == Byte.backslash || bytes[position + 1] == Byte.quote {
                if unescaped == nil { unescaped = Array(bytes[start..<position]) }
                unescaped?.append(bytes[position + 1])
                position += 2
                continue
            }
            if byte == Byte.quote && closesQuote(at: position) {
                position += 1
                return unescaped.map { $0[...] } ?? bytes[start..<(position - 1)]
            }
            unescaped?.append(byte)
            position += 1
        }
        throw IMAPParseError(.incomplete, "unterminated quoted string", at: open)
    }

    /// Whether the `"` at `index` ends a quoted string: it is followed by a delimiter.
    private func closesQuote(at index: Int) -> Bool {
        guard index + 1 < end else { return true }
        switch bytes[index + 1] {
        case Byte.space, Byte.openParen, Byte.closeParen, Byte.closeBracket, Byte.cr, Byte.lf:
            return true
        default:
            return false
        }
    }

    /// literal = "{" number ["+"] "}" CRLF *CHAR8; literal8 = "~{" number "}" CRLF *OCTET
    mutating func readLiteral() throws(IMAPParseError) -> ArraySlice<UInt8> {
        let open = position
        _ = consume(Byte.tilde)
        try expect(Byte.openBrace, "a literal")
        let length = try readNumber()
        _ = consume(Byte.plus)
        try expect(Byte.closeBrace, "} after the literal length")
        _ = consume(Byte.cr)
        try expect(Byte.lf, "CRLF after the literal length")
        guard length <= UInt64(limits.maxLiteralSize) else {
            throw IMAPParseError(.limitExceeded, "literal of \(length) bytes", at: open)
        }
        guard UInt64(end - position) >= length else {
            throw IMAPParseError(.incomplete, "literal runs past the response", at: open)
        }
        let start = position
        position += Int(length)
        return bytes[start..<position]
    }

    /// "(" [item *(SP item)] ")", liberal about spaces, capped in items and depth.
    mutating func readList<Item>(
        _ item: (inout ResponseReader) throws(IMAPParseError) -> Item
    ) throws(IMAPParseError) -> [Item] {
        try expect(Byte.openParen, "(")
        try enterNesting()
        var items: [Item] = []
        while true {
            skipSpaces()
            if consume(Byte.closeParen) { break }
            guard items.count < limits.maxListItems else {
                throw IMAPParseError(.limitExceeded, "list longer than \(limits.maxListItems)", at: position)
            }
            items.append(try item(&self))
        }
        leaveNesting()
        return items
    }

    /// A list where NIL, `""` and `()` all mean "empty".
    mutating func readNilOrList<Item>(
        _ item: (inout ResponseReader) throws(IMAPParseError) -> Item
    ) throws(IMAPParseError) -> [Item] {
        if consumeKeyword("NIL") { return [] }
        if peek() == Byte.quote && peek(offset: 1) == Byte.quote {
            position += 2
            return []
        }
        return try readList(item)
    }

    /// A flag, list attribute or Gmail label: `\Seen`, `$Label`, `\*`, `[Gmail]Foo`,
    /// `+IMNews`, a quoted string or a literal. A bare one ends before SP or a parenthesis.
    mutating func readFlag() throws(IMAPParseError) -> String {
        if peek() == Byte.quote { return String(decoding: try readQuoted(), as: UTF8.self) }
        if peek() == Byte.openBrace && isLiteralMarker() {
            return String(decoding: try readLiteral(), as: UTF8.self)
        }
        let start = position
        while position < end, bytes[position] > Byte.space, bytes[position] != Byte.closeParen,
              bytes[position] != Byte.openParen {
            position += 1
        }
        guard position > start else { throw error("expected a flag") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }
}
