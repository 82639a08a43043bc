/// RFC 2047 encoded words (`=?charset?B|Q?text?=`) in header text.
///
/// Lenient where real mail is broken: words glued to other text are decoded,
/// a word may contain blanks (folded in the middle by a sloppy mailer), the
/// charset may carry an RFC 2231 `*language` suffix, and consecutive words in
/// the same charset are joined before conversion so a multibyte character
/// split across two words survives. Whitespace between adjacent encoded words
/// is dropped (RFC 2047 §6.2). Anything that does not parse stays as written.
public enum EncodedWord {
    /// Longest encoded text accepted between `?B?`/`?Q?` and `?=`.
    static let maxEncodedTextBytes = 2048
    static let maxCharsetBytes = 80

    public static func decode(_ text: String) -> String {
        guard mayContainWord(text) else { return text }
        let bytes = Array(text.utf8)
        var output = DecodedText()
        var literalStart = 0
        var index = 0
        var sawWord = false
        var markers = ClosingMarkers()
        while index + 1 < bytes.count {
            guard bytes[index] == ASCII.equals, let word = parseWord(bytes, at: index, markers: &markers) else {
                index += 1
                continue
            }
            let literal = bytes[literalStart..<index]
            if !(sawWord && literal.allSatisfy(ASCII.isWhitespace)) {
                output.appendLiteral(literal)
            }
            output.appendWord(word.decoded, charset: word.charset)
            sawWord = true
            index = word.end
            literalStart = index
        }
        output.appendLiteral(bytes[literalStart...])
        return output.finish()
    }

    /// True when `text` has a `=?`, without which there is nothing to decode.
    static func mayContainWord(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == ASCII.equals, byte == ASCII.question { return true }
            previous = byte
        }
        return false
    }

    /// Where the parts of one encoded word starting at `start` (on `=?`) lie.
    struct Span {
        var charset: Range<Int>
        /// Lower-cased `b` or `q`.
        var encoding: UInt8
        var text: Range<Int>
        /// The index after the closing `?=`.
        var end: Int
    }

    /// The encoded word starting at `start`, if one does. `markers` carries
    /// the search for `?=` across calls with increasing `start`, so scanning a
    /// value full of unterminated `=?` stays linear.
    static func scan(_ bytes: [UInt8], at start: Int, markers: inout ClosingMarkers) -> Span? {
        guard start + 1 < bytes.count, bytes[start] == ASCII.equals, bytes[start + 1] == ASCII.question
        else { return nil }
        let charsetStart = start + 2
        var index = charsetStart
        while index < bytes.count, bytes[index] != ASCII.question {
            if ASCII.isWhitespace(bytes[index]) || index - charsetStart > maxCharsetBytes { return nil }
            index += 1
        }
        guard index > charsetStart, index + 2 < bytes.count, bytes[index + 2] == ASCII.question else { return nil }
        let encoding = ASCII.lowercased(bytes[index + 1])
        guard encoding == UInt8(ascii: "b") || encoding == UInt8(ascii: "q") else { return nil }
        let textStart = index + 3
        guard let textEnd = markers.first(in: bytes, from: textStart),
              textEnd - textStart <= maxEncodedTextBytes else { return nil }
        return Span(charset: charsetStart..<index, encoding: encoding, text: textStart..<textEnd, end: textEnd + 2)
    }

    /// One parsed word: its charset, its transfer-decoded bytes, and the index after `?=`.
    private struct Word {
        var charset: String
        var decoded: [UInt8]
        var end: Int
    }

    private static func parseWord(_ bytes: [UInt8], at start: Int, markers: inout ClosingMarkers) -> Word? {
        guard let span = scan(bytes, at: start, markers: &markers) else { return nil }
        let text = bytes[span.text]
        let charset = String(decoding: bytes[span.charset], as: UTF8.self)
        if span.encoding == UInt8(ascii: "b") {
            return Word(charset: charset, decoded: Base64.decode(text), end: span.end)
        }
        if text.contains(where: { $0 >= 0x80 }) {
            return Word(charset: "utf-8", decoded: Array(mixedQText(text, charset: charset).utf8), end: span.end)
        }
        return Word(charset: charset, decoded: QuotedPrintable.decode(text, underscoreIsSpace: true), end: span.end)
    }

    /// Q text holding raw 8-bit characters (sent unencoded by old mailers):
    /// those already became Unicode with the rest of the header, so only the
    /// ASCII runs around them are decoded in the word's charset.
    private static func mixedQText(_ text: ArraySlice<UInt8>, charset: String) -> String {
        var result = ""
        var runStart = text.startIndex
        while runStart < text.endIndex {
            let isASCII = text[runStart] < 0x80
            let runEnd = text[runStart...].firstIndex { ($0 < 0x80) != isASCII } ?? text.endIndex
            let run = text[runStart..<runEnd]
            result += isASCII
                ? Charset.decode(QuotedPrintable.decode(run, underscoreIsSpace: true)[...], charset: charset)
                : String(decoding: run, as: UTF8.self)
            runStart = runEnd
        }
        return result
    }
}

/// Finds the `?` of the first `?=` at or after a position, remembering the
/// last answer: for increasing positions the total work is linear.
struct ClosingMarkers {
    private var searchedFrom = Int.max
    /// The first marker at or after `searchedFrom`; nil when there is none.
    private var found: Int?

    mutating func first(in bytes: [UInt8], from start: Int) -> Int? {
        if start >= searchedFrom, found.map({ $0 >= start }) ?? true { return found }
        searchedFrom = start
        found = nil
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == ASCII.question, bytes[index + 1] == ASCII.equals {
                found = index
                break
            }
            index += 1
        }
        return found
    }
}

/// The output of `EncodedWord.decode` being built: UTF-8 bytes plus the raw
/// bytes of the run of encoded words not yet converted from their charset.
private struct DecodedText {
    private var utf8: [UInt8] = []
    private var pendingCharset = ""
    private var pendingBytes: [UInt8] = []

    mutating func appendLiteral(_ literal: ArraySlice<UInt8>) {
        guard !literal.isEmpty else { return }
        flush()
        utf8.append(contentsOf: literal)
    }

    mutating func appendWord(_ decoded: [UInt8], charset: String) {
        let canonical = Charset.canonicalName(charset)
        if canonical != pendingCharset { flush() }
        pendingCharset = canonical
        pendingBytes.append(contentsOf: decoded)
    }

    private mutating func flush() {
        guard !pendingBytes.isEmpty else { return }
        utf8.append(contentsOf: Charset.decode(pendingBytes[...], charset: pendingCharset).utf8)
        pendingBytes.removeAll(keepingCapacity: true)
    }

    mutating func finish() -> String {
        flush()
        return String(decoding: utf8, as: UTF8.self)
    }
}
