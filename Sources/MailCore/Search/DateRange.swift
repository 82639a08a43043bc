/// `date:SINCE..UNTIL` (either side may be left open) or `date:WHEN` (= `WHEN..WHEN`),
/// as notmuch reads it: SINCE is the earliest instant it can mean (`2026-10` is October
/// 1st, 00:00), UNTIL the latest (the end of October). Resolved against a clock by
/// `resolved(now:calendar:)`, so parsing stays pure.
public struct DateRange: Sendable, Equatable {
    public var since: DateBound?
    public var until: DateBound?

    public init(since: DateBound?, until: DateBound?) {
        self.since = since
        self.until = until
    }

    /// Reads the value of `date:`; nil with the reason when it is not a date mailfs knows.
    static func parse(_ value: String) -> Result<DateRange, DateSyntaxError> {
        guard let dots = value.range(of: "..") else {
            return DateBound.parse(value).map { DateRange(since: $0, until: $0) }
        }
        let since = value[..<dots.lowerBound], until = value[dots.upperBound...]
        return bound(since).flatMap { lower in bound(until).map { DateRange(since: lower, until: $0) } }
    }

    private static func bound(_ text: Substring) -> Result<DateBound?, DateSyntaxError> {
        text.isEmpty ? .success(nil) : DateBound.parse(String(text)).map { $0 }
    }
}

/// One side of a date range.
public enum DateBound: Sendable, Equatable {
    /// `2026`, `2026-10` or `2026-10-01`: that year, month or day.
    case calendar(year: Int, month: Int?, day: Int?)
    case today, yesterday
    /// `now`: this second.
    case now
    /// `7d`, `2w`, `3M`, `1y`, `5h`, `1y2M`: that long before now, to the precision of its
    /// smallest unit (`3M` is the whole month three months ago).
    case ago(RelativeSpan)
    /// `@1700000000`: that second since 1970.
    case timestamp(Int64)

    static func parse(_ text: String) -> Result<DateBound, DateSyntaxError> {
        switch text.lowercased() {
        case "today": return .success(.today)
        case "yesterday": return .success(.yesterday)
        case "now": return .success(.now)
        default: break
        }
        if text.hasPrefix("@"), text.count <= 12, let seconds = Int64(text.dropFirst()), seconds >= 0 {
            return .success(.timestamp(seconds))
        }
        if let date = calendarDate(text) { return date }
        if let span = RelativeSpan.parse(text) { return .success(.ago(span)) }
        return .failure(DateSyntaxError(text: text))
    }

    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (one-digit month and day allowed); nil when the text
    /// has another shape, a failure when the shape is right but the date does not exist.
    private static func calendarDate(_ text: String) -> Result<DateBound, DateSyntaxError>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
              parts.dropFirst().allSatisfy({ (1...2).contains($0.count) }),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) }) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count else { return nil }
        let year = numbers[0], month = numbers.count > 1 ? numbers[1] : nil, day = numbers.count > 2 ? numbers[2] : nil
        guard (1970...9999).contains(year), month.map({ (1...12).contains($0) }) ?? true,
              day.map({ (1...daysIn(month: month ?? 1, year: year)).contains($0) }) ?? true else {
            return .failure(DateSyntaxError(text: text, reason: "no such date"))
        }
        return .success(.calendar(year: year, month: month, day: day))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// How long ago a relative date is: a count per unit, accumulated (`1y2M` is 14 months).
/// Its smallest unit is its precision.
public struct RelativeSpan: Sendable, Equatable {
    /// Ordered from the most to the least precise; a week is coarser than a day.
    public enum Unit: Int, Sendable, Comparable, CaseIterable {
        case second, minute, hour, day, week, month, year

        public static func < (lhs: Unit, rhs: Unit) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var counts: [Unit: Int]

    public init(_ counts: [Unit: Int]) {
        self.counts = counts
    }

    /// The smallest unit written: `3M` rounds to months, `1M2d` to days.
    public var precision: Unit { counts.keys.min() ?? .day }

    public func count(_ unit: Unit) -> Int { counts[unit] ?? 0 }

    /// notmuch's units: a single `m` is minutes and `M` months; words may be spelled out.
    private static let units: [String: Unit] = [
        "y": .year, "year": .year, "years": .year,
        "M": .month, "month": .month, "months": .month,
        "w": .week, "week": .week, "weeks": .week,
        "d": .day, "day": .day, "days": .day,
        "h": .hour, "hr": .hour, "hrs": .hour, "hour": .hour, "hours": .hour,
        "m": .minute, "min": .minute, "mins": .minute, "minute": .minute, "minutes": .minute,
        "s": .second, "sec": .second, "secs": .second, "second": .second, "seconds": .second,
    ]

    /// `NUNIT[NUNIT…]`, each count at most 4 digits; nil for anything else.
    static func parse(_ text: String) -> RelativeSpan? {
        var counts: [Unit: Int] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            let word = rest.dropFirst(digits.count).prefix { $0.isASCII && $0.isLetter }
            let key = word.count == 1 ? String(word) : word.lowercased()
            guard (1...4).contains(digits.count), let count = Int(digits), let unit = units[key] else { return nil }
            counts[unit, default: 0] += count
            rest = rest.dropFirst(digits.count + word.count)
        }
        return counts.isEmpty ? nil : RelativeSpan(counts)
    }
}

/// A `date:` value mailfs cannot read.
struct DateSyntaxError: Error, Sendable {
    var text: String
    var reason = "cannot read the date"

    var message: String {
        "\(reason) \"\(text)\" (use 2026-10-01, 2026-10, 2026, today, yesterday, 7d, 2w, 3M, 1y, @SECONDS)"
    }
}
