/// The last pass over every piece of text a rendering prints: message text is untrusted,
/// and `cat` of a rendering in a terminal must not run its escape sequences
/// (`ESC [2J` clears the screen). Control characters (C0 but tab and line feed, DEL,
/// C1) are dropped, and so are the invisible characters that split words without showing
/// (soft hyphens, zero-width spaces, byte order marks), which newsletters sprinkle
/// in their text and which would keep `grep` from finding the words they split.
enum ReadableText {
    static func cleaned(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isDropped) else { return text }
        var result = String.UnicodeScalarView()
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars where !isDropped(scalar) {
            result.append(scalar)
        }
        return String(result)
    }

    /// One header value on one line: controls and line breaks become spaces.
    static func oneLine(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                pendingSpace = !result.isEmpty
            } else if !isInvisible(scalar) {
                if pendingSpace, scalar != " " { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        return String(result)
    }

    static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0..<0x20, 0x7F...0x9F: true
        default: isInvisible(scalar)
        }
    }

    /// Soft hyphen, combining grapheme joiner, zero-width space, word joiner, byte order
    /// mark. The zero-width joiner and non-joiner stay: they are spelling in Persian and
    /// Indic scripts and in emoji.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xAD, 0x34F, 0x200B, 0x2060, 0xFEFF: true
        default: false
        }
    }
}
