import Foundation

/// The Date header value we write (RFC 5322 §3.3), always in UTC so that it
/// does not depend on the machine's zone or locale:
///
///     Tue, 1 Jul 2003 10:52:37 +0000
enum RFC5322Date {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = CivilCalendar.monthAbbreviations

    static func string(from date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let weekday = weekdays[((parts.weekday ?? 1) - 1 + 7) % 7]
        let month = months[((parts.month ?? 1) - 1 + 12) % 12]
        let time = [parts.hour, parts.minute, parts.second].map { twoDigits($0 ?? 0) }.joined(separator: ":")
        return "\(weekday), \(parts.day ?? 1) \(month) \(parts.year ?? 1970) \(time) +0000"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
