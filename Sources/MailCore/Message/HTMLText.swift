/// Plain text from an HTML body, for search, snippets and messages that have
/// no text/plain part: script, style and head content dropped, tags removed,
/// entities decoded, block elements and `<br>` turned into line breaks,
/// whitespace collapsed. Linear in the input; never fails on broken HTML.
public enum HTMLText {
    public static func plainText(fromHTML html: String) -> String {
        var converter = HTMLConverter(bytes: Array(html.utf8))
        return converter.run()
    }
}

/// One pass over the HTML bytes, writing text into `output`.
private struct HTMLConverter {
    let bytes: [UInt8]
    private var index = 0
    private var output: [UInt8] = []
    private var pendingSpace = false
    private var pendingBreaks = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        output.reserveCapacity(bytes.count / 2)
    }

    mutating func run() -> String {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.lessThan {
                readMarkup()
            } else if byte == ASCII.ampersand {
                let (text, next) = HTMLEntities.decode(bytes, at: index)
                index = next
                for scalarByte in text.utf8 { appendText(scalarByte) }
            } else {
                appendText(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private mutating func appendText(_ byte: UInt8) {
        if ASCII.isWhitespace(byte) {
            pendingSpace = true
            return
        }
        if !output.isEmpty {
            if pendingBreaks > 0 {
                output.append(contentsOf: repeatElement(ASCII.lf, count: pendingBreaks))
            } else if pendingSpace {
                output.append(ASCII.space)
            }
        }
        pendingBreaks = 0
        pendingSpace = false
        output.append(byte)
    }

    private mutating func lineBreak(_ count: Int) {
        pendingBreaks = max(pendingBreaks, count)
    }

    /// A tag, comment or declaration starting at `<`.
    private mutating func readMarkup() {
        if hasPrefix("<!--", at: index) {
            index = end(of: Array("-->".utf8), from: index + 4)
            return
        }
        let nameStart = index + (index + 1 < bytes.count && bytes[index + 1] == ASCII.slash ? 2 : 1)
        var nameEnd = nameStart
        while nameEnd < bytes.count, ASCII.isLetter(bytes[nameEnd]) || ASCII.isDigit(bytes[nameEnd]) { nameEnd += 1 }
        let isMarkup = nameEnd > nameStart || (nameStart < bytes.count
            && (bytes[nameStart] == UInt8(ascii: "!") || bytes[nameStart] == ASCII.question))
        guard isMarkup else {
            appendText(ASCII.lessThan)
            index += 1
            return
        }
        let name = HTMLTags.key(bytes[nameStart..<nameEnd])
        let isClosing = nameStart == index + 2
        index = end(of: [ASCII.greaterThan], from: nameEnd)
        if !isClosing, HTMLTags.hiddenContent.contains(name) {
            let closing = [ASCII.lessThan, ASCII.slash] + bytes[nameStart..<nameEnd].map(ASCII.lowercased)
            index = end(of: closing, from: index, caseInsensitive: true)
            index = end(of: [ASCII.greaterThan], from: index)
        } else if let breaks = HTMLTags.lineBreaks[name] {
            lineBreak(breaks)
        } else if HTMLTags.cellSeparators.contains(name) {
            pendingSpace = true
        }
    }

    private func hasPrefix(_ text: String, at position: Int) -> Bool {
        ByteSearch.hasPrefix(Array(text.utf8), in: bytes[...], at: position)
    }

    /// The index after the first `marker` at or after `start`, or the end.
    private func end(of marker: [UInt8], from start: Int, caseInsensitive: Bool = false) -> Int {
        var position = start
        while position + marker.count <= bytes.count {
            if let first = ByteSearch.firstIndex(of: marker[0], in: bytes[...], from: position) {
                guard first + marker.count <= bytes.count else { break }
                if matches(marker, at: first, caseInsensitive: caseInsensitive) { return first + marker.count }
                position = first + 1
            } else {
                break
            }
        }
        return bytes.count
    }

    private func matches(_ marker: [UInt8], at position: Int, caseInsensitive: Bool) -> Bool {
        for offset in 0..<marker.count {
            let byte = bytes[position + offset]
            let same = caseInsensitive ? ASCII.lowercased(byte) == marker[offset] : byte == marker[offset]
            if !same { return false }
        }
        return true
    }
}

/// Which HTML elements matter for turning HTML into text. Names are looked
/// up by `key`, their first eight bytes lower-cased and packed in an integer,
/// so the converter allocates nothing per tag.
enum HTMLTags {
    static func key<Bytes: Collection<UInt8>>(_ name: Bytes) -> UInt64 {
        name.prefix(8).reduce(0) { $0 << 8 | UInt64(ASCII.lowercased($1)) }
    }

    /// Elements whose whole content is not text for a reader.
    static let hiddenContent: Set<UInt64> = Set(["script", "style", "head", "title", "template", "noscript"]
        .map { key($0.utf8) })

    /// Elements that start a new line (1) or a new paragraph (2), open or closed.
    static let lineBreaks: [UInt64: Int] = {
        var table: [UInt64: Int] = [:]
        for name in ["br", "div", "li", "tr", "dt", "dd", "hr", "section", "article", "header", "footer", "nav",
                     "aside", "main", "figure", "figcaption", "address", "center", "form", "fieldset", "caption"] {
            table[key(name.utf8)] = 1
        }
        for name in ["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol", "dl"] {
            table[key(name.utf8)] = 2
        }
        return table
    }()

    /// Elements between which a space separates the text.
    static let cellSeparators: Set<UInt64> = [key("td".utf8), key("th".utf8)]
}
