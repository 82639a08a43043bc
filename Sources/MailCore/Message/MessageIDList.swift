/// Message-ID, In-Reply-To and References values as lists of ids without `<>`.
///
/// RFC 5322 §3.6.4 wants `<id-left@id-right>` tokens, but In-Reply-To is
/// often free text ("Your message of ... <id>") and some mailers drop the
/// brackets. Rules: comments are removed; when bracketed ids exist only they
/// count; otherwise the blank- or comma-separated words that contain `@` are
/// the ids, or the single word when there is only one.
public enum MessageIDList {
    public static func parse(_ raw: String) -> [String] {
        let bytes = CommentStripper.strip(Array(raw.utf8))
        let bracketed = bracketedIDs(bytes)
        if !bracketed.isEmpty { return bracketed }
        let words = bytes.split { ASCII.isWhitespace($0) || $0 == ASCII.comma }
            .map { unbracketed(HeaderText.string($0)) }
            .filter { !$0.isEmpty }
        let withAt = words.filter { $0.utf8.contains(ASCII.at) }
        if !withAt.isEmpty { return withAt }
        return words.count == 1 ? words : []
    }

    /// The first id of the value, for Message-ID.
    public static func first(_ raw: String) -> String? {
        parse(raw).first
    }

    private static func bracketedIDs(_ bytes: [UInt8]) -> [String] {
        var ids: [String] = []
        var index = 0
        while var open = bytes[index...].firstIndex(of: ASCII.lessThan) {
            guard let close = bytes[(open + 1)...].firstIndex(of: ASCII.greaterThan) else { break }
            // `<<id>>`: the id lies inside the innermost brackets.
            open = bytes[open..<close].lastIndex(of: ASCII.lessThan) ?? open
            let inner = ByteSearch.trimmed(bytes[...], (open + 1)..<close)
            if !inner.isEmpty {
                ids.append(HeaderText.string(bytes[inner]))
            }
            index = close + 1
        }
        return ids
    }

    private static func unbracketed(_ word: String) -> String {
        let isBracket: (Character) -> Bool = { $0 == "<" || $0 == ">" }
        return String(word.drop(while: isBracket).reversed().drop(while: isBracket).reversed())
    }
}

/// Removes RFC 5322 comments `( ... )`, nested and with `\` quoting, leaving
/// quoted strings alone; each comment becomes one space.
enum CommentStripper {
    static func strip(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(ASCII.openParen) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var depth = 0
        var inQuotes = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.backslash, inQuotes || depth > 0 {
                if depth == 0 { output.append(contentsOf: bytes[index..<min(index + 2, bytes.count)]) }
                index += 2
                continue
            }
            switch byte {
            case ASCII.quote where depth == 0:
                inQuotes.toggle()
                output.append(byte)
            case ASCII.openParen where !inQuotes:
                depth += 1
            case ASCII.closeParen where !inQuotes && depth > 0:
                depth -= 1
                if depth == 0 { output.append(ASCII.space) }
            default:
                if depth == 0 { output.append(byte) }
            }
            index += 1
        }
        return output
    }
}
