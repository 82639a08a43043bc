/// Gathers MIME parameters and resolves RFC 2231 forms:
/// `name*=charset'lang'%XX` (extended), `name*0=`, `name*1*=` (continuations,
/// joined in section order; only the first section carries charset and
/// language). An RFC 2231 value wins over a plain one of the same name.
struct RFC2231Collector {
    /// Most sections kept per parameter, and the highest section number.
    static let maxSections = 64
    static let maxSectionNumber = 99_999

    private var plain: [String: String] = [:]
    private var extended: [String: String] = [:]
    private var sections: [String: [Section]] = [:]

    private struct Section {
        var number: Int
        var value: String
        var isExtended: Bool
    }

    mutating func add(name rawName: String, value: String) {
        let name = rawName.lowercased()
        guard let star = name.firstIndex(of: "*") else {
            if plain[name] == nil { plain[name] = value }
            return
        }
        let base = String(name[..<star])
        let rest = name[name.index(after: star)...]
        guard !base.isEmpty else { return }
        if rest.isEmpty {
            if extended[base] == nil { extended[base] = Self.decodeExtended(value) }
            return
        }
        let isExtended = rest.hasSuffix("*")
        let digits = isExtended ? rest.dropLast() : rest
        guard let number = Int(digits), number >= 0, number <= Self.maxSectionNumber,
              digits.allSatisfy(\.isASCII), (sections[base]?.count ?? 0) < Self.maxSections,
              sections[base]?.contains(where: { $0.number == number }) != true
        else { return }
        sections[base, default: []].append(Section(number: number, value: value, isExtended: isExtended))
    }

    func finish() -> [String: String] {
        var result = plain
        for (name, value) in extended { result[name] = value }
        for (name, parts) in sections {
            result[name] = Self.join(parts.sorted { $0.number < $1.number })
        }
        for (name, value) in result where name != "boundary" && EncodedWord.mayContainWord(value) {
            result[name] = EncodedWord.decode(value)
        }
        return result
    }

    private static func join(_ parts: [Section]) -> String {
        var charset = ""
        var bytes: [UInt8] = []
        for (position, part) in parts.enumerated() {
            if part.isExtended {
                var text = Substring(part.value)
                if position == 0, let (name, rest) = splitCharset(text) {
                    charset = name
                    text = rest
                }
                bytes += percentDecoded(text)
            } else {
                bytes += Array(part.value.utf8)
            }
        }
        return charset.isEmpty ? Charset.utf8OrWindows1252(bytes[...]) : Charset.decode(bytes[...], charset: charset)
    }

    /// `charset'language'text` -> text in that charset.
    static func decodeExtended(_ value: String) -> String {
        guard let (name, rest) = splitCharset(Substring(value)) else {
            return Charset.utf8OrWindows1252(percentDecoded(Substring(value))[...])
        }
        let bytes = percentDecoded(rest)
        return name.isEmpty ? Charset.utf8OrWindows1252(bytes[...]) : Charset.decode(bytes[...], charset: name)
    }

    /// Splits `charset'language'rest`; nil without two apostrophes.
    private static func splitCharset(_ text: Substring) -> (String, Substring)? {
        guard let first = text.firstIndex(of: "'") else { return nil }
        let afterFirst = text[text.index(after: first)...]
        guard let second = afterFirst.firstIndex(of: "'") else { return nil }
        return (String(text[..<first]), afterFirst[afterFirst.index(after: second)...])
    }

    /// `%XX` escapes decoded; a `%` not followed by two hex digits stays.
    static func percentDecoded(_ text: Substring) -> [UInt8] {
        let source = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(source.count)
        var index = 0
        while index < source.count {
            if source[index] == ASCII.percent, index + 2 < source.count,
               let high = ASCII.hexValue(source[index + 1]), let low = ASCII.hexValue(source[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(source[index])
                index += 1
            }
        }
        return output
    }
}
