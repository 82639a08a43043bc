import Foundation

/// RFC 5322 §3.3 date-times, including the obsolete and broken forms real
/// mail carries: 2- and 3-digit years (§4.3), named and military zones,
/// missing seconds or weekday, comments, lower-case or numeric months,
/// AM/PM, fractional seconds, a missing zone (taken as UTC), the date at the
/// end of a Received value (after the last `;`). Out-of-range fields give nil.
///
///     Tue, 1 Jul 2003 10:52:37 +0200
///     21 Nov 97 09:55:06 GMT
public enum DateParser {
    public static func parse(_ raw: String) -> Date? {
        var text = Substring(raw)
        if let semicolon = text.lastIndex(of: ";") { text = text[text.index(after: semicolon)...] }
        let bytes = CommentStripper.strip(Array(text.utf8.prefix(1024)))
        var fields = DateFields()
        for token in DateToken.scan(bytes) {
            fields.take(token)
        }
        return fields.date()
    }
}

/// The fields of a date collected from its tokens, in whatever order they came.
struct DateFields {
    var day: Int?
    var month: Int?
    var year: Int?
    var yearDigits = 4
    var hour: Int?
    var minute = 0
    var second = 0
    var meridiem: String?
    var zoneMinutes: Int?
    var invalid = false

    mutating func take(_ token: DateToken) {
        switch token {
        case .word(let word):
            takeWord(word)
        case .number(let value, let digits):
            takeNumber(value, digits: digits)
        case .time(let h, let m, let s):
            if hour == nil { (hour, minute, second) = (h, m, s) }
        case .signedNumber(let negative, let digits):
            if hour != nil, zoneMinutes == nil { takeZone(Self.offset(digits: digits, negative: negative)) }
        case .dottedDate(let d, let m, let y, let digits):
            if day == nil, month == nil, year == nil { (day, month, year, yearDigits) = (d, m, y, digits) }
        }
    }

    private mutating func takeWord(_ word: String) {
        if month == nil, let number = DateNames.month(word) {
            month = number
        } else if hour != nil, word == "am" || word == "pm" {
            meridiem = word
        } else if hour != nil, zoneMinutes == nil, let zone = DateNames.zoneMinutes(word) {
            zoneMinutes = zone
        }
    }

    private mutating func takeNumber(_ value: Int, digits: String) {
        let count = digits.count
        if hour != nil, zoneMinutes == nil, year != nil, count == 4 {
            takeZone(Self.offset(digits: digits, negative: false))
        } else if count >= 3 {
            if year == nil { (year, yearDigits) = (value, count) }
        } else if day == nil {
            day = value
        } else if month == nil {
            month = value
            if !(1...12).contains(value) { invalid = true }
        } else if year == nil {
            (year, yearDigits) = (value, count)
        }
    }

    /// A numeric zone; an out-of-range one makes the whole date invalid.
    private mutating func takeZone(_ minutes: Int?) {
        zoneMinutes = minutes
        if minutes == nil { invalid = true }
    }

    /// `hhmm`, `hmm` or `hh` as minutes east of UTC; nil when out of range.
    static func offset(digits: String, negative: Bool) -> Int? {
        guard let value = Int(digits), digits.count <= 4 else { return nil }
        let (hours, minutes) = digits.count <= 2 ? (value, 0) : (value / 100, value % 100)
        guard hours <= 23, minutes <= 59 else { return nil }
        let total = hours * 60 + minutes
        return negative ? -total : total
    }

    func date() -> Date? {
        guard !invalid, let day, let month, var year, var hour else { return nil }
        if yearDigits <= 2 { year += year < 50 ? 2000 : 1900 } else if yearDigits == 3 { year += 1900 }
        if meridiem == "pm", hour < 12 { hour += 12 }
        if meridiem == "am", hour == 12 { hour = 0 }
        guard (1000...9999).contains(year), (1...12).contains(month),
              (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - (zoneMinutes ?? 0) * 60
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
