import Foundation

/// A date's UTC calendar day and time of day, as file names, `.status` and `.log` show
/// them, in the proleptic Gregorian calendar of ISO 8601 (plain arithmetic: no Calendar, no
/// time zone database, no formatter).
public struct UTCStamp: Sendable {
    /// `2026-11-21`.
    public let day: String
    private let secondOfDay: Int

    /// `2320`: hours and minutes, as file names carry them.
    var time: String { hour + minute }

    /// `23:20`: hours and minutes, as rendered message text shows them.
    public var hourMinute: String { "\(hour):\(minute)" }

    /// `2026-11-21T23:20:00Z`.
    public var iso8601: String { "\(day)T\(hour):\(minute):\(second)Z" }

    private var hour: String { Self.padded(secondOfDay / 3600, 2) }
    private var minute: String { Self.padded(secondOfDay % 3600 / 60, 2) }
    private var second: String { Self.padded(secondOfDay % 60, 2) }

    /// Years outside 1...9999 (a hostile or broken Date header) are clamped.
    public init(_ date: Date) {
        let lowest: TimeInterval = -62_135_596_800   // 0001-01-01T00:00:00Z
        let highest: TimeInterval = 253_402_300_799  // 9999-12-31T23:59:59Z
        let raw = date.timeIntervalSince1970
        let seconds = Int((raw.isFinite ? min(max(raw, lowest), highest) : 0).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        secondOfDay = seconds - days * 86_400
        let civil = Self.civilDate(daysSinceEpoch: days)
        day = "\(Self.padded(civil.year, 4))-\(Self.padded(civil.month, 2))-\(Self.padded(civil.day, 2))"
    }

    /// Days since 1970-01-01 to year, month, day (the era-based algorithm of Howard
    /// Hinnant's "chrono-compatible low-level date algorithms").
    static func civilDate(daysSinceEpoch: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = daysSinceEpoch + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
