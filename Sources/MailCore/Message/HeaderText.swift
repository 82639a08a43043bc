/// Turns raw header bytes into text and decodes unstructured header values.
enum HeaderText {
    /// Raw header bytes as a String: ASCII and valid UTF-8 as they are (RFC 6532),
    /// other 8-bit text as Windows-1252 (Latin-1). NUL bytes are dropped: they
    /// carry no meaning in a header and would poison file names and the store.
    static func string(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.contains(ASCII.nul) {
            return Charset.utf8OrWindows1252(bytes.filter { $0 != ASCII.nul }[...])
        }
        return Charset.utf8OrWindows1252(bytes)
    }

    /// An unstructured value (Subject, Comments) for display: RFC 2047 words
    /// decoded, runs of whitespace (left by folding) collapsed to one space,
    /// control characters turned into spaces, ends trimmed.
    static func unstructured(_ raw: String) -> String {
        collapsingWhitespace(EncodedWord.decode(raw))
    }

    /// Runs of whitespace and control characters become one space; ends trimmed.
    static func collapsingWhitespace(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar.isASCII
                ? scalar.value <= 0x20 || scalar.value == 0x7F
                : scalar.properties.isWhitespace
            if isSpace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        return String(result)
    }
}
