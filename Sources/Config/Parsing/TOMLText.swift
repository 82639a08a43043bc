/// Byte-level pieces of TOML's grammar that `KeyLineIndex` needs: blanks, keys, string ends.
/// Inputs are single lines as UTF-8 bytes; every index is checked, so any text is safe to scan.
enum TOMLText {
    static func skipBlanks(_ line: [UInt8], from start: Int) -> Int {
        var index = start
        while index < line.count, line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t") {
            index += 1
        }
        return index
    }

    /// Where the name of the table header at `start` begins: after `[`, blanks, and for an array
    /// of tables a second `[` and blanks.
    static func tableNameStart(in line: [UInt8], from start: Int) -> Int {
        var index = skipBlanks(line, from: start + 1)
        if index < line.count, line[index] == UInt8(ascii: "[") {
            index = skipBlanks(line, from: index + 1)
        }
        return index
    }

    /// Whether a key may begin with `byte`: a bare-key character or a quote.
    static func canStartKey(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || ConfigKey.isBareKeyScalar(Unicode.Scalar(byte))
    }

    /// A (dotted) key starting at `start`: its components and the index after it and its trailing
    /// blanks, or nil when no key is there.
    ///
    ///     key = simple-key / dotted-key        (TOML 1.0 ABNF)
    ///     dotted-key = simple-key 1*( dot-sep simple-key )
    ///     simple-key = quoted-key / unquoted-key
    static func key(in line: [UInt8], from start: Int) -> ([String], Int)? {
        var components: [String] = []
        var index = skipBlanks(line, from: start)
        while true {
            guard let (component, end) = simpleKey(in: line, from: index) else { return nil }
            components.append(component)
            index = skipBlanks(line, from: end)
            guard index < line.count, line[index] == UInt8(ascii: ".") else { return (components, index) }
            index = skipBlanks(line, from: index + 1)
        }
    }

    private static func simpleKey(in line: [UInt8], from start: Int) -> (String, Int)? {
        guard start < line.count else { return nil }
        let first = line[start]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            let delimiter = StringDelimiter(opening: line, at: start)
            guard !delimiter.isMultiline,
                  let end = end(of: delimiter, in: line, from: start + 1)
            else { return nil }
            let content = Array(line[(start + 1)..<(end - 1)])
            return (delimiter.hasEscapes ? unescape(content) : String(decoding: content, as: UTF8.self), end)
        }
        var end = start
        while end < line.count, ConfigKey.isBareKeyScalar(Unicode.Scalar(line[end])) {
            end += 1
        }
        guard end > start else { return nil }
        return (String(decoding: line[start..<end], as: UTF8.self), end)
    }

    /// The index just after the string closed by `delimiter`, searching from `start` (just after
    /// the opening quotes), or nil when it is not closed on this line.
    static func end(of delimiter: StringDelimiter, in line: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < line.count {
            let byte = line[index]
            if delimiter.hasEscapes, byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == delimiter.quote, closes(delimiter, line, at: index) {
                var end = index + delimiter.length
                // `""""` closes a multi-line string whose content ends with a quote (up to two).
                while delimiter.isMultiline, end < line.count, line[end] == delimiter.quote, end < index + 5 {
                    end += 1
                }
                return end
            }
            index += 1
        }
        return nil
    }

    private static func closes(_ delimiter: StringDelimiter, _ line: [UInt8], at index: Int) -> Bool {
        guard delimiter.isMultiline else { return true }
        return index + 2 < line.count && line[index + 1] == delimiter.quote && line[index + 2] == delimiter.quote
    }

    /// The text of a basic-string key with its escapes (`\"`, `\\`, `\n`, `\uXXXX`, …) resolved.
    static func unescape(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        var text = String(decoding: bytes, as: UTF8.self).unicodeScalars[...]
        while let scalar = text.popFirst() {
            guard scalar == "\\", let escape = text.popFirst() else {
                scalars.append(scalar)
                continue
            }
            switch escape {
            case "b": scalars.append("\u{08}")
            case "t": scalars.append("\t")
            case "n": scalars.append("\n")
            case "f": scalars.append("\u{0C}")
            case "r": scalars.append("\r")
            case "u", "U":
                let digits = String(String.UnicodeScalarView(text.prefix(escape == "u" ? 4 : 8)))
                text = text.dropFirst(digits.unicodeScalars.count)
                if let value = UInt32(digits, radix: 16), let decoded = Unicode.Scalar(value) {
                    scalars.append(decoded)
                }
            default: scalars.append(escape)
            }
        }
        return String(scalars)
    }
}
