/// The lexical pieces of a date-time value. Anything that is not a letter,
/// a digit or a sign before a digit separates tokens.
enum DateToken: Equatable {
    /// Letters, lower-cased.
    case word(String)
    case number(Int, digits: String)
    /// `hh:mm[:ss[.fraction]]`, also with dots once a date was seen.
    case time(hour: Int, minute: Int, second: Int)
    /// `+hhmm` / `-hhmm`: a zone offset (digits kept to read their width).
    case signedNumber(negative: Bool, digits: String)
    /// `dd.mm.yyyy` as some European mailers write.
    case dottedDate(day: Int, month: Int, year: Int, yearDigits: Int)

    static func scan(_ bytes: [UInt8]) -> [DateToken] {
        var tokens: [DateToken] = []
        var index = 0
        while index < bytes.count, tokens.count < 64 {
            let byte = bytes[index]
            if ASCII.isLetter(byte) {
                let start = index
                while index < bytes.count, ASCII.isLetter(bytes[index]) { index += 1 }
                tokens.append(.word(String(decoding: bytes[start..<index], as: UTF8.self).lowercased()))
            } else if ASCII.isDigit(byte) {
                let start = index
                while index < bytes.count, ASCII.isDigit(bytes[index]) || isNumericSeparator(bytes, index) {
                    index += 1
                }
                if let token = numeric(String(decoding: bytes[start..<index], as: UTF8.self)) {
                    tokens.append(token)
                }
            } else if (byte == ASCII.plus || byte == ASCII.minus), index + 1 < bytes.count,
                      ASCII.isDigit(bytes[index + 1]) {
                let start = index + 1
                index = start
                while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
                let digits = String(decoding: bytes[start..<index], as: UTF8.self)
                tokens.append(.signedNumber(negative: byte == ASCII.minus, digits: digits))
            } else {
                index += 1
            }
        }
        return tokens
    }

    /// `:` or `.` between two digits belongs to a time or dotted date.
    private static func isNumericSeparator(_ bytes: [UInt8], _ index: Int) -> Bool {
        (bytes[index] == ASCII.colon || bytes[index] == ASCII.dot)
            && index + 1 < bytes.count && ASCII.isDigit(bytes[index + 1])
    }

    private static func numeric(_ text: String) -> DateToken? {
        if text.utf8.contains(ASCII.colon) {
            let groups = text.split(separator: ":", omittingEmptySubsequences: false)
            guard groups.count == 2 || groups.count == 3 else { return nil }
            let secondsGroup = groups.count == 3 ? groups[2].split(separator: ".").first ?? "0" : "0"
            guard let hour = Int(groups[0]), let minute = Int(groups[1].split(separator: ".").first ?? ""),
                  let second = Int(secondsGroup), groups[0].count <= 2, groups[1].count >= 1 else { return nil }
            return .time(hour: hour, minute: minute, second: second)
        }
        let groups = text.split(separator: ".")
        if groups.count == 3, let day = Int(groups[0]), let month = Int(groups[1]), let year = Int(groups[2]),
           (1...12).contains(month), groups[0].count <= 2, groups[1].count <= 2, groups[2].count == 2 || groups[2].count == 4 {
            return .dottedDate(day: day, month: month, year: year, yearDigits: groups[2].count)
        }
        if groups.count == 2 || groups.count == 3, groups.allSatisfy({ $0.count <= 2 }) {
            let parts = groups.compactMap { Int($0) }
            guard parts.count == groups.count else { return nil }
            return .time(hour: parts[0], minute: parts[1], second: parts.count == 3 ? parts[2] : 0)
        }
        guard groups.count == 1, text.count <= 9, let value = Int(text) else { return nil }
        return .number(value, digits: text)
    }
}

/// Month and zone names of RFC 5322 and the ones mailers commonly add.
enum DateNames {
    private static let months = CivilCalendar.monthAbbreviations.map { $0.lowercased() }

    /// 1-12 for a three-letter abbreviation or a full name (any case), else nil.
    static func month(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        let prefix = String(word.prefix(3))
        guard let index = months.firstIndex(of: prefix) else { return nil }
        let full = ["january", "february", "march", "april", "may", "june", "july",
                    "august", "september", "october", "november", "december"][index]
        guard word.count == 3 || full.hasPrefix(word) || word == "sept" else { return nil }
        return index + 1
    }

    /// Minutes east of UTC for a zone name. RFC 5322 §4.3: military letters
    /// are treated as UTC since RFC 822 defined their signs backwards.
    static func zoneMinutes(_ word: String) -> Int? {
        if word.count == 1, word != "j" { return 0 }
        return namedZones[word].map { $0 * 60 }
    }

    private static let namedZones: [String: Int] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "wet": 0, "bst": 1, "cet": 1, "met": 1, "mez": 1,
        "west": 1, "cest": 2, "mest": 2, "mesz": 2, "eet": 2, "eest": 3, "msk": 3,
        "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
        "akst": -9, "akdt": -8, "hst": -10, "ast": -4, "adt": -3, "jst": 9, "kst": 9,
        "hkt": 8, "sgt": 8, "awst": 8, "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13,
    ]
}
