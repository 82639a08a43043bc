import Foundation
import MailCore

/// Dates as IMAP commands spell them, always computed in a fixed time zone with the
/// Gregorian calendar and English month names, whatever the user's locale.
public enum IMAPDate {
    private static let months = CivilCalendar.monthAbbreviations

    /// `date` of SEARCH (`SINCE 1-Nov-2026`): the day in `timeZone`. Servers compare in
    /// their own zone, so callers widen a window by a day (docs/IMAP-QUIRKS.md §3.6).
    public static func search(_ date: Date, timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current) -> String {
        let parts = components(of: date, in: timeZone)
        return "\(parts.day)-\(months[parts.month - 1])-\(parts.year)"
    }

    /// `date-time` of APPEND: `"05-Nov-2026 14:03:59 +0000"`, in UTC.
    public static func dateTime(_ date: Date) -> String {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let parts = components(of: date, in: utc)
        let time = [parts.hour, parts.minute, parts.second].map(twoDigits).joined(separator: ":")
        return "\"\(twoDigits(parts.day))-\(months[parts.month - 1])-\(parts.year) \(time) +0000\""
    }

    private static func components(
        of date: Date, in timeZone: TimeZone
    ) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return (
            parts.year ?? 1970, min(max(parts.month ?? 1, 1), 12), parts.day ?? 1,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0
        )
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
