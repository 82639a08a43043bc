/// A `type/subtype; name=value; ...` value (Content-Type, RFC 2045 §5.1) or a
/// `kind; name=value` value (Content-Disposition, RFC 2183), best effort:
/// comments and stray blanks anywhere, missing `;` between parameters,
/// unquoted values with spaces, unterminated quotes, duplicated parameters
/// (the first wins), RFC 2231 continuations and charsets, and RFC 2047 words
/// in values (not RFC, but what many mailers send for file names).
struct MIMEHeaderValue: Sendable, Hashable {
    /// Lower-cased; "" when the value starts with `/` or `;`.
    var type: String
    /// Lower-cased; nil when there is no `/`.
    var subtype: String?
    /// Parameter names lower-cased, values decoded.
    var parameters: [String: String]

    static func parse(_ raw: String) -> MIMEHeaderValue {
        var reader = ParameterReader(bytes: Array(raw.utf8))
        reader.skipBlanksAndComments()
        let type = reader.readToken(allowSlash: false)
        reader.skipBlanksAndComments()
        var subtype: String?
        if reader.take(ASCII.slash) {
            reader.skipBlanksAndComments()
            subtype = reader.readToken(allowSlash: true).lowercased()
        }
        var collector = RFC2231Collector()
        while let parameter = reader.nextParameter() {
            collector.add(name: parameter.name, value: parameter.value)
        }
        return MIMEHeaderValue(type: type.lowercased(), subtype: subtype, parameters: collector.finish())
    }
}

/// Reads the pieces of a MIME header value.
struct ParameterReader {
    let bytes: [UInt8]
    private(set) var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var atEnd: Bool { index >= bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard !atEnd, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func skipBlanks() {
        while !atEnd, ASCII.isWhitespace(bytes[index]) { index += 1 }
    }

    mutating func skipBlanksAndComments() {
        skipBlanks()
        while !atEnd, bytes[index] == ASCII.openParen {
            var depth = 0
            repeat {
                if bytes[index] == ASCII.backslash { index += 1 }
                else if bytes[index] == ASCII.openParen { depth += 1 }
                else if bytes[index] == ASCII.closeParen { depth -= 1 }
                index = min(index + 1, bytes.count)
            } while !atEnd && depth > 0
            skipBlanks()
        }
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        ASCII.isWhitespace(byte) || byte == ASCII.equals || byte == ASCII.semicolon
            || byte == ASCII.openParen || byte == ASCII.quote
    }

    private static func endsToken(_ byte: UInt8, allowSlash: Bool) -> Bool {
        ASCII.isWhitespace(byte) || byte == ASCII.semicolon || byte == ASCII.openParen
            || (!allowSlash && byte == ASCII.slash)
    }

    mutating func readToken(allowSlash: Bool) -> String {
        let start = index
        while !atEnd, !Self.endsToken(bytes[index], allowSlash: allowSlash) { index += 1 }
        return HeaderText.string(bytes[start..<index])
    }

    /// The next `name=value`, skipping garbage; nil at the end.
    mutating func nextParameter() -> (name: String, value: String)? {
        while !atEnd {
            skipBlanksAndComments()
            while take(ASCII.semicolon) { skipBlanksAndComments() }
            guard !atEnd else { return nil }
            let nameStart = index
            while !atEnd, !Self.endsName(bytes[index]) { index += 1 }
            let name = HeaderText.string(bytes[nameStart..<index])
            skipBlanksAndComments()
            guard take(ASCII.equals) else {
                if index == nameStart { index += 1 }
                continue
            }
            skipBlanks()
            let value = atEnd || bytes[index] != ASCII.quote ? readUnquotedValue() : readQuotedValue()
            if !name.isEmpty, !value.isEmpty { return (name, value) }
        }
        return nil
    }

    private mutating func readQuotedValue() -> String {
        index += 1
        var content: [UInt8] = []
        while !atEnd, bytes[index] != ASCII.quote {
            if bytes[index] == ASCII.backslash, index + 1 < bytes.count { index += 1 }
            content.append(bytes[index])
            index += 1
        }
        index = min(index + 1, bytes.count)
        return HeaderText.string(content[...])
    }

    /// A token, extended over following words that do not start a new
    /// parameter (`filename=my file.pdf`), without trailing comments.
    private mutating func readUnquotedValue() -> String {
        let start = index
        var end = index
        while true {
            while !atEnd, !Self.endsToken(bytes[index], allowSlash: true) { index += 1 }
            end = index
            skipBlanksAndComments()
            if atEnd || bytes[index] == ASCII.semicolon || startsParameter() { break }
        }
        return HeaderText.string(bytes[start..<end])
    }

    /// True when a `name=` starts here (a parameter after a missing `;`).
    private func startsParameter() -> Bool {
        var cursor = index
        while cursor < bytes.count, !ASCII.isWhitespace(bytes[cursor]),
              bytes[cursor] != ASCII.equals, bytes[cursor] != ASCII.semicolon { cursor += 1 }
        guard cursor > index else { return false }
        while cursor < bytes.count, ASCII.isBlank(bytes[cursor]) { cursor += 1 }
        return cursor < bytes.count && bytes[cursor] == ASCII.equals
    }
}
