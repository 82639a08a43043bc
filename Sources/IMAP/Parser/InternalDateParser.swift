import Foundation
import MailCore

/// The IMAP date-time of INTERNALDATE: `"17-Jul-1996 02:44:25 -0700"`.
///
/// Parsed by hand (no DateFormatter: it is slow and locale-bound). Liberal: the day
/// may lack its padding space (qq.com sends `7-Jul-…`), the zone may be missing (UTC).
enum InternalDateParser {
    private static let months = CivilCalendar.monthAbbreviations.map { $0.uppercased() }

    /// date-time = DQUOTE date-day-fixed "-" date-month "-" date-year SP time SP zone DQUOTE
    static func parse(_ text: some Collection<UInt8>) -> Date? {
        var scanner = DigitScanner(Array(text))
        scanner.skipSpaces()
        guard let day = scanner.number(maxDigits: 2), scanner.consume(Byte.minus),
              let month = scanner.monthIndex(months), scanner.consume(Byte.minus),
              let year = scanner.number(maxDigits: 4) else { return nil }
        scanner.skipSpaces()
        guard let hour = scanner.number(maxDigits: 2), scanner.consume(Byte.colon),
              let minute = scanner.number(maxDigits: 2), scanner.consume(Byte.colon),
              let second = scanner.number(maxDigits: 2) else { return nil }
        scanner.skipSpaces()
        let offset = scanner.zoneOffsetSeconds() ?? 0
        guard (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let days = CivilCalendar.daysSince1970(year: year, month: month + 1, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

/// A small cursor over the bytes of a date.
private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == Byte.space { index += 1 }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func number(maxDigits: Int) -> Int? {
        var value = 0
        var digits = 0
        while digits < maxDigits, index < bytes.count, let digit = Byte.digitValue(bytes[index]) {
            value = value * 10 + digit
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
    }

    mutating func monthIndex(_ names: [String]) -> Int? {
        guard index + 3 <= bytes.count else { return nil }
        let name = String(decoding: bytes[index..<(index + 3)].map(Byte.uppercased), as: UTF8.self)
        guard let month = names.firstIndex(of: name) else { return nil }
        index += 3
        return month
    }

    /// zone = ("+" / "-") 4DIGIT, as seconds east of UTC.
    mutating func zoneOffsetSeconds() -> Int? {
        guard index < bytes.count else { return nil }
        let sign = bytes[index] == Byte.minus ? -1 : 1
        guard bytes[index] == Byte.minus || bytes[index] == Byte.plus else { return nil }
        index += 1
        guard let value = number(maxDigits: 4) else { return nil }
        return sign * ((value / 100) * 3600 + (value % 100) * 60)
    }
}
