import Foundation

/// RFC 2047 encoding of UTF-8 text into encoded words, for header text that
/// holds non-ASCII characters.
///
/// Words are cut between Unicode scalars (§5: each word holds whole
/// characters), at most `maxWordLength` long so that `Subject: ` and a word
/// fit in 78 columns. Q, readable for Latin scripts, is used when at most half
/// the characters are non-ASCII; B otherwise (CJK, emoji runs). The Q alphabet
/// is the narrow one of §5(3), valid in a phrase, a comment and unstructured
/// text alike: letters, digits and `!*+-/`; a space is `_`.
///
///     Café crème  ->  =?utf-8?q?Caf=C3=A9_cr=C3=A8me?=
enum EncodedWordEncoder {
    static let maxWordLength = 66

    /// The encoded words for `text`, to be separated by a blank in the header.
    static func encode(_ text: String) -> [String] {
        let nonASCII = text.unicodeScalars.count { !$0.isASCII }
        let useQ = nonASCII * 2 <= text.unicodeScalars.count
        let prefix = useQ ? "=?utf-8?q?" : "=?utf-8?b?"
        let capacity = maxWordLength - prefix.utf8.count - 2
        var words: [String] = []
        var pending: [UInt8] = []
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if !pending.isEmpty, encodedLength(pending + bytes, useQ: useQ) > capacity {
                words.append(prefix + encodedText(pending, useQ: useQ) + "?=")
                pending.removeAll()
            }
            pending += bytes
        }
        if !pending.isEmpty || words.isEmpty {
            words.append(prefix + encodedText(pending, useQ: useQ) + "?=")
        }
        return words
    }

    private static func encodedLength(_ bytes: [UInt8], useQ: Bool) -> Int {
        useQ ? qLength(bytes) : (bytes.count + 2) / 3 * 4
    }

    private static func qLength(_ bytes: [UInt8]) -> Int {
        bytes.reduce(0) { $0 + (isQLiteral($1) || $1 == ASCII.space ? 1 : 3) }
    }

    private static func isQLiteral(_ byte: UInt8) -> Bool {
        ASCII.isLetter(byte) || ASCII.isDigit(byte) || qSafeSpecials.contains(byte)
    }

    private static let qSafeSpecials: [UInt8] = Array("!*+-/".utf8)

    private static func encodedText(_ bytes: [UInt8], useQ: Bool) -> String {
        guard useQ else { return base64(bytes) }
        var output: [UInt8] = []
        for byte in bytes {
            if isQLiteral(byte) {
                output.append(byte)
            } else if byte == ASCII.space {
                output.append(ASCII.underscore)
            } else {
                output += QuotedPrintableEncoder.escape(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}
