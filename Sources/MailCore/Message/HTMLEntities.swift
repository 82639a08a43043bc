/// HTML character references: numeric (`&#233;`, `&#xE9;`) and the named
/// ones that occur in mail. An unknown or broken reference stays as written.
enum HTMLEntities {
    /// Longest reference looked at (`&` to `;`).
    static let maxLength = 32

    /// The text of the reference at `start` (on `&`) and the index after it.
    static func decode(_ bytes: [UInt8], at start: Int) -> (String, Int) {
        let limit = min(bytes.count, start + maxLength)
        var end = start + 1
        while end < limit, ASCII.isLetter(bytes[end]) || ASCII.isDigit(bytes[end]) || bytes[end] == ASCII.hash {
            end += 1
        }
        let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        let hasSemicolon = end < bytes.count && bytes[end] == ASCII.semicolon
        guard let text = resolve(name) else { return ("&", start + 1) }
        return (text, hasSemicolon ? end + 1 : end)
    }

    private static func resolve(_ name: String) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value else { return nil }
            // NUL, surrogates and out-of-range values are not characters.
            guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
            return String(Character(scalar))
        }
        return named[name]
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "copy": "©", "reg": "®", "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "sbquo": "‚", "bdquo": "„",
        "bull": "•", "middot": "·", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢",
        "sect": "§", "para": "¶", "deg": "°", "plusmn": "±", "times": "×", "divide": "÷",
        "laquo": "«", "raquo": "»", "iexcl": "¡", "iquest": "¿", "shy": "", "zwnj": "", "zwj": "",
        "ensp": " ", "emsp": " ", "thinsp": " ", "frac12": "½", "frac14": "¼", "frac34": "¾",
        "auml": "ä", "ouml": "ö", "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "szlig": "ß",
        "aacute": "á", "eacute": "é", "iacute": "í", "oacute": "ó", "uacute": "ú",
        "Aacute": "Á", "Eacute": "É", "Iacute": "Í", "Oacute": "Ó", "Uacute": "Ú",
        "agrave": "à", "egrave": "è", "igrave": "ì", "ograve": "ò", "ugrave": "ù",
        "Agrave": "À", "Egrave": "È", "acirc": "â", "ecirc": "ê", "icirc": "î", "ocirc": "ô", "ucirc": "û",
        "ccedil": "ç", "Ccedil": "Ç", "ntilde": "ñ", "Ntilde": "Ñ", "atilde": "ã", "otilde": "õ",
        "aring": "å", "Aring": "Å", "aelig": "æ", "AElig": "Æ", "oslash": "ø", "Oslash": "Ø",
        "euml": "ë", "iuml": "ï", "yuml": "ÿ", "rarr": "→", "larr": "←", "hearts": "♥", "check": "✓",
    ]
}
