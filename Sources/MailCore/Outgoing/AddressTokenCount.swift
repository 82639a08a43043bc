/// How many RFC 822 tokens an address header holds, counted as Postfix's `tok822_parse`
/// counts them: each atom, quoted string, comment and domain literal is one token, and so
/// is each other special (`<`, `>`, `@`, `,`, `;`, `:`, `.`, and Postfix's `%`, `!`, `|`).
///
/// Postfix keeps the first `header_address_token_limit` (10,240 by default) tokens of an
/// address header and drops the rest without a word, so a To of some 1,700 bare addresses
/// (`bob@example.org,` is six tokens) or fewer with display names arrives cut. An outgoing
/// message whose address header is over that is refused at close (`OutgoingFieldWriter`):
/// what outbox/ takes is what its recipients see.
enum AddressTokenCount {
    static let serverLimit = 10_240

    /// The header fields a server parses as addresses (Postfix's `header_opts.c`).
    static let addressFields: Set<String> = [
        "from", "sender", "reply-to", "to", "cc", "bcc", "apparently-to", "errors-to", "return-path",
        "return-receipt-to", "disposition-notification-to", "resent-from", "resent-sender", "resent-reply-to",
        "resent-to", "resent-cc", "resent-bcc",
    ]

    private static let specials: Set<UInt8> = Set("<>@,;:.)]%!|".utf8)

    static func of(_ value: String) -> Int {
        let bytes = Array(value.utf8)
        var count = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if ASCII.isBlank(byte) || byte == ASCII.cr || byte == ASCII.lf {
                index += 1
                continue
            }
            count += 1
            switch byte {
            case ASCII.quote: index = end(of: bytes, from: index, closing: ASCII.quote)
            case ASCII.openParen: index = endOfComment(bytes, from: index)
            case UInt8(ascii: "["): index = end(of: bytes, from: index, closing: UInt8(ascii: "]"))
            case _ where specials.contains(byte): index += 1
            default: index = endOfAtom(bytes, from: index)
            }
        }
        return count
    }

    /// After the quoted string or domain literal that starts at `start` (a backslash
    /// quotes the next byte); the end of the value when it is not closed.
    private static func end(of bytes: [UInt8], from start: Int, closing: UInt8) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == ASCII.backslash { index += 2; continue }
            if bytes[index] == closing { return index + 1 }
            index += 1
        }
        return bytes.count
    }

    /// After the comment that starts at `start`, nested comments included.
    private static func endOfComment(_ bytes: [UInt8], from start: Int) -> Int {
        var depth = 0
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case ASCII.backslash: index += 1
            case ASCII.openParen: depth += 1
            case ASCII.closeParen:
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
            index += 1
        }
        return bytes.count
    }

    private static func endOfAtom(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.backslash { index += 2; continue }
            if ASCII.isBlank(byte) || byte == ASCII.cr || byte == ASCII.lf || byte == ASCII.quote
                || byte == ASCII.openParen || byte == UInt8(ascii: "[") || specials.contains(byte) { break }
            index += 1
        }
        return min(index, bytes.count)
    }
}
