/// How the framer treats a response, told from its first two words.
enum FramedKind: Equatable {
    /// `+ …` or a status line (`* OK`, `A1 NO`, `* BYE` …): one line, text read raw.
    case statusLine
    /// `* SEARCH`, `* VANISHED` …: may exceed the line limit (bounded by the response limit).
    case bulk
    /// Everything else: literals and nested lists allowed.
    case structured

    private static let statusWords = ["OK", "NO", "BAD", "BYE", "PREAUTH"].map { Array($0.utf8) }
    private static let bulkWords = ["SEARCH", "ESEARCH", "SORT", "THREAD", "VANISHED"].map { Array($0.utf8) }

    static func classify(_ line: ArraySlice<UInt8>) -> FramedKind {
        guard let first = line.first else { return .structured }
        if first == Byte.plus { return .statusLine }
        guard let space = line.firstIndex(of: Byte.space) else { return .structured }
        let word = line[(space + 1)...].prefix { byte in
            byte != Byte.space && byte != Byte.openBracket && byte != Byte.cr && byte != Byte.lf
        }
        if statusWords.contains(where: { matches(word, $0) }) { return .statusLine }
        if space == line.startIndex + 1 && first == Byte.asterisk && bulkWords.contains(where: { matches(word, $0) }) {
            return .bulk
        }
        return .structured
    }

    /// ASCII case-insensitive equality with an upper-case keyword.
    private static func matches(_ word: ArraySlice<UInt8>, _ keyword: [UInt8]) -> Bool {
        word.count == keyword.count && zip(word, keyword).allSatisfy { Byte.uppercased($0) == $1 }
    }
}

/// Tracks quoted strings and parenthesis depth across a response, for the framer's
/// "line break inside a quoted string" rule. Uses the parser's liberal rules: a `"`
/// opens a string only where a token starts (Outlook puts `"` inside atoms) and closes
/// it only before a delimiter (iCloud leaves `"` unescaped inside strings).
struct QuoteTracker {
    var inQuote = false
    var escaped = false
    var depth = 0

    /// Updates the state with `bytes[index]`; false when the byte after it is needed
    /// and has not arrived yet.
    @inline(__always)
    mutating func track(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let byte = bytes[index]
        if inQuote {
            if escaped {
                escaped = false
            } else if byte == Byte.backslash {
                escaped = true
            } else if byte == Byte.quote {
                guard index + 1 < bytes.count else { return false }
                inQuote = !Self.isDelimiter(bytes[index + 1])
            }
            return true
        }
        switch byte {
        case Byte.quote: inQuote = index == 0 || Self.startsToken(after: bytes[index - 1])
        case Byte.openParen: depth += 1
        case Byte.closeParen: depth = max(depth - 1, 0)
        default: break
        }
        return true
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == Byte.space || byte == Byte.openParen || byte == Byte.closeParen
            || byte == Byte.closeBracket || byte == Byte.cr || byte == Byte.lf
    }

    private static func startsToken(after byte: UInt8) -> Bool {
        byte == Byte.space || byte == Byte.openParen || byte == Byte.closeParen
            || byte == Byte.closeBracket || byte == Byte.closeAngle || byte == Byte.lf
    }
}
