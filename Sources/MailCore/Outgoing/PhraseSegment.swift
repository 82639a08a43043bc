/// The lexical pieces of a structured field value, with their text as
/// written, for `PhraseFieldText`. Never fails: an unterminated quoted
/// string, comment or angle address runs to the end of the value.
struct PhraseSegment {
    enum Kind {
        case blank
        /// An atom or a quoted string, with its text as displayed (quotes and escapes removed).
        case word(display: String)
        /// A comment, with its content as displayed (outer parentheses and escapes removed).
        case comment(content: String)
        /// An angle address, a domain literal or one special character: copied as written.
        case other
    }

    var kind: Kind
    var raw: String

    static func scan(_ bytes: [UInt8]) -> [PhraseSegment] {
        var segments: [PhraseSegment] = []
        var index = 0
        while index < bytes.count {
            let start = index
            let kind: Kind
            switch bytes[index] {
            case ASCII.space, ASCII.tab:
                while index < bytes.count, ASCII.isBlank(bytes[index]) { index += 1 }
                kind = .blank
            case ASCII.quote:
                kind = .word(display: delimited(bytes, &index, close: ASCII.quote, nests: false))
            case ASCII.openParen:
                kind = .comment(content: delimited(bytes, &index, close: ASCII.closeParen, nests: true))
            case ASCII.lessThan, UInt8(ascii: "["):
                // An angle address or a domain literal: never encoded.
                let close = bytes[index] == ASCII.lessThan ? ASCII.greaterThan : UInt8(ascii: "]")
                index = (bytes[index...].firstIndex(of: close) ?? bytes.count - 1) + 1
                kind = .other
            case let byte where isSpecial(byte):
                index += 1
                kind = .other
            default:
                while index < bytes.count, !isSpecial(bytes[index]), !ASCII.isBlank(bytes[index]),
                      !opensSegment(bytes[index]) {
                    index += 1
                }
                kind = .word(display: String(decoding: bytes[start..<index], as: UTF8.self))
            }
            segments.append(PhraseSegment(kind: kind, raw: String(decoding: bytes[start..<index], as: UTF8.self)))
        }
        return segments
    }

    private static func opensSegment(_ byte: UInt8) -> Bool {
        byte == ASCII.quote || byte == ASCII.openParen || byte == ASCII.lessThan || byte == UInt8(ascii: "[")
    }

    /// Specials that end an atom and stand alone (`@` and `.` belong to atoms here).
    private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case ASCII.comma, ASCII.semicolon, ASCII.colon, ASCII.greaterThan, ASCII.closeParen,
             UInt8(ascii: "]"), ASCII.backslash:
            return true
        default:
            return false
        }
    }

    /// Reads from the opening character at `index` to its closing one
    /// (nested when `nests`), honouring backslash escapes; returns the content unescaped.
    private static func delimited(_ bytes: [UInt8], _ index: inout Int, close: UInt8, nests: Bool) -> String {
        let open = bytes[index]
        index += 1
        var depth = 1
        var content: [UInt8] = []
        while index < bytes.count {
            var byte = bytes[index]
            if byte == ASCII.backslash, index + 1 < bytes.count {
                index += 1
                byte = bytes[index]
            } else if byte == close {
                depth -= 1
                if depth == 0 { break }
            } else if nests, byte == open {
                depth += 1
            }
            content.append(byte)
            index += 1
        }
        index = min(index + 1, bytes.count)
        return String(decoding: content, as: UTF8.self)
    }
}
