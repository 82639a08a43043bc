/// Splits an address list into `AddressToken`s. Never fails: an unterminated
/// quoted string, comment or angle address runs to the end of the input.
struct AddressScanner {
    let bytes: [UInt8]
    private var index = 0
    /// Where the last word token ended, to tell glued words (`"a b"@x`) apart.
    private var lastWordEnd = -1
    private var markers = ClosingMarkers()

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func next() -> AddressToken? {
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case ASCII.space, ASCII.tab, ASCII.cr, ASCII.lf, ASCII.greaterThan, ASCII.closeParen:
                index += 1
            case ASCII.comma, ASCII.semicolon:
                index += 1
                return .separator
            case ASCII.colon:
                index += 1
                return .groupStart
            case ASCII.openParen:
                return .comment(readComment())
            case ASCII.quote:
                let start = index
                guard let (display, written) = readQuoted() else { continue }
                return word(display: display, address: written, start: start)
            case ASCII.lessThan:
                return .angle(readAngle())
            default:
                let start = index
                let atom = readAtom()
                return word(display: atom, address: atom, start: start)
            }
        }
        return nil
    }

    private mutating func word(display: String, address: String, start: Int) -> AddressToken {
        defer { lastWordEnd = index }
        return .word(display: display, address: address, glued: start == lastWordEnd)
    }

    /// An atom, taking a whole RFC 2047 word even when it holds specials.
    private mutating func readAtom() -> String {
        let start = index
        while index < bytes.count {
            if let span = EncodedWord.scan(bytes, at: index, markers: &markers) {
                index = span.end
                continue
            }
            if Self.endsAtom(bytes[index]) { break }
            index += 1
        }
        return HeaderText.string(bytes[start..<index])
    }

    private static func endsAtom(_ byte: UInt8) -> Bool {
        switch byte {
        case ASCII.space, ASCII.tab, ASCII.cr, ASCII.lf, ASCII.openParen, ASCII.closeParen, ASCII.lessThan,
             ASCII.greaterThan, ASCII.comma, ASCII.semicolon, ASCII.colon, ASCII.quote:
            return true
        default:
            return false
        }
    }

    /// A quoted string: its unescaped content, and the string as written (for
    /// a quoted local part such as `"john doe"@example.com`). An unterminated
    /// quote is skipped (nil) so what follows it is still read as addresses.
    private mutating func readQuoted() -> (String, String)? {
        let start = index
        index += 1
        var content: [UInt8] = []
        while index < bytes.count, bytes[index] != ASCII.quote {
            if bytes[index] == ASCII.backslash, index + 1 < bytes.count { index += 1 }
            if bytes[index] != ASCII.cr, bytes[index] != ASCII.lf { content.append(bytes[index]) }
            index += 1
        }
        guard index < bytes.count else {
            index = start + 1
            return nil
        }
        index += 1
        return (HeaderText.string(content[...]), HeaderText.string(bytes[start..<index]))
    }

    /// A comment's content, nested comments included as written.
    private mutating func readComment() -> String {
        index += 1
        var depth = 1
        var content: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.backslash, index + 1 < bytes.count {
                content.append(bytes[index + 1])
                index += 2
                continue
            }
            if byte == ASCII.openParen { depth += 1 }
            if byte == ASCII.closeParen {
                depth -= 1
                if depth == 0 { break }
            }
            content.append(byte)
            index += 1
        }
        index = min(index + 1, bytes.count)
        return HeaderText.string(content[...])
    }

    /// The address inside `<...>`: comments and blanks outside quotes removed,
    /// an obsolete source route (`@a,@b:`) dropped.
    private mutating func readAngle() -> String {
        index += 1
        var content: [UInt8] = []
        var inQuotes = false
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == ASCII.backslash, index + 1 < bytes.count {
                    content.append(byte)
                    index += 1
                } else if byte == ASCII.quote {
                    inQuotes = false
                }
                content.append(bytes[index])
                index += 1
                continue
            }
            if byte == ASCII.greaterThan { break }
            if byte == ASCII.openParen {
                _ = readComment()
                continue
            }
            if byte == ASCII.quote { inQuotes = true }
            if !ASCII.isWhitespace(byte) { content.append(byte) }
            index += 1
        }
        index = min(index + 1, bytes.count)
        if content.first == ASCII.at, let colon = content.firstIndex(of: ASCII.colon) {
            content.removeSubrange(0...colon)
        }
        return HeaderText.string(content[...])
    }
}
