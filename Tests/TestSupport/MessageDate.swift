import Foundation

/// Dates as a message's `Date:` header writes them, for test messages built from a `Date`.
public enum MessageDate {
    /// `Tue, 24 Nov 2026 12:00:00 +0000`, always in UTC.
    public static func rfc5322(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss +0000"
        return formatter.string(from: date)
    }
}
