/// Skipping values the grammar does not need, and recovering from broken ones.
extension ResponseReader {
    /// Skips one value of any shape: atom, quoted string, literal, or a (nested)
    /// parenthesised list. Iterative, so hostile nesting costs no stack.
    mutating func skipValue() throws(IMAPParseError) {
        var nesting = 0
        repeat {
            skipSpaces()
            guard let byte = peek() else { throw error("value expected") }
            switch byte {
            case Byte.openParen:
                position += 1
                nesting += 1
                guard nesting <= limits.maxNestingDepth else {
                    throw IMAPParseError(.limitExceeded, "nesting too deep", at: position)
                }
            case Byte.closeParen:
                guard nesting > 0 else { throw error("unexpected )") }
                position += 1
                nesting -= 1
            case Byte.quote:
                _ = try readQuoted()
            case Byte.openBrace, Byte.tilde:
                _ = try readLiteral()
            default:
                _ = try readAtomBytes()
            }
        } while nesting > 0
    }

    /// Skips a parenthesised value that failed to parse, to its matching `)`. First
    /// honours quoted strings; if they do not balance, counts parentheses alone.
    /// Literals are always skipped whole. Returns false when no end is found.
    mutating func skipBrokenList(from start: Int) -> Bool {
        for respectingQuotes in [true, false] {
            if let after = matchingParenthesis(from: start, respectingQuotes: respectingQuotes) {
                position = after
                return true
            }
        }
        return false
    }

    /// The index just after the `)` that closes the `(` at `start`.
    private func matchingParenthesis(from start: Int, respectingQuotes: Bool) -> Int? {
        var probe = self
        probe.position = start
        var nesting = 0
        while let byte = probe.peek() {
            switch byte {
            case Byte.quote where respectingQuotes:
                guard (try? probe.readQuoted()) != nil else { return nil }
                continue
            case Byte.openBrace where probe.isLiteralMarker():
                guard (try? probe.readLiteral()) != nil else { return nil }
                continue
            case Byte.openParen:
                nesting += 1
            case Byte.closeParen:
                nesting -= 1
                if nesting <= 0 { return probe.position + 1 }
            default:
                break
            }
            probe.position += 1
        }
        return nil
    }

    /// Whether a `{` here starts a literal: `{digits}` then CRLF.
    func isLiteralMarker() -> Bool {
        var index = position + 1
        while index < end, Byte.isDigit(bytes[index]) { index += 1 }
        guard index > position + 1, index < end, bytes[index] == Byte.closeBrace else { return false }
        index += 1
        if index < end, bytes[index] == Byte.cr { index += 1 }
        return index < end && bytes[index] == Byte.lf
    }

    /// Reads a bracketed text up to the matching `]`, honouring quotes and nested
    /// brackets: a section spec or a response code. The position ends after `]`.
    mutating func readBracketed() throws(IMAPParseError) -> ArraySlice<UInt8> {
        try expect(Byte.openBracket, "[")
        let start = position
        var nesting = 1
        while position < end {
            switch bytes[position] {
            case Byte.quote:
                if (try? readQuoted()) == nil { position += 1 }
                continue
            case Byte.openBracket:
                nesting += 1
            case Byte.closeBracket:
                nesting -= 1
                if nesting == 0 {
                    position += 1
                    return bytes[start..<(position - 1)]
                }
            default:
                break
            }
            position += 1
        }
        throw IMAPParseError(.incomplete, "missing ]", at: start)
    }
}
