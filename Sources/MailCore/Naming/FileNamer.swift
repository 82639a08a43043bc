import Foundation

/// Readable, sortable, safe names for the mounted tree (docs/REQUIREMENTS.md §C2, names).
///
///     FileNamer.messageFileName(date: d, from: "Alice Smith", subject: "Lunch plans")
///     // "2026-11-20 1432 Alice Smith - Lunch plans.eml"
///     FileNamer.threadDirectoryName(date: d, subject: "Re: Lunch plans")
///     // "2026-11-20 Lunch plans"
///
/// Dates are written in UTC so a name never depends on the machine's time zone. Every
/// name goes through `sanitize`, so header text can never make a path component such as
/// `..` or one longer than `maxNameBytes`. Names are not made unique here: the caller
/// assigns a name once and uses `disambiguate` on a collision.
public enum FileNamer {
    /// Linux's NAME_MAX, in bytes of UTF-8.
    public static let maxNameBytes = 255
    public static let noSubject = "(no subject)"
    public static let unknownSender = "(unknown sender)"

    /// `yyyy-MM-dd HHmm <from> - <subject>.eml`; the subject is cut first when too long.
    public static func messageFileName(date: Date, from: String, subject: String) -> String {
        let sender = from.contains(where: { !$0.isWhitespace }) ? from : unknownSender
        let title = subject.contains(where: { !$0.isWhitespace }) ? subject : noSubject
        let stamp = UTCStamp(date)
        return sanitize("\(stamp.day) \(stamp.time) \(sender) - \(title).eml")
    }

    /// `yyyy-MM-dd <normalized subject>`, named after the thread's root message.
    public static func threadDirectoryName(date: Date, subject: String) -> String {
        let normalized = SubjectNormalizer.normalize(subject)
        let title = normalized.isEmpty ? noSubject : normalized
        return sanitize("\(UTCStamp(date).day) \(title)", keepingExtension: false)
    }

    /// The `from` of `messageFileName`: the display name, else the address's local part,
    /// else `unknownSender`.
    public static func senderName(_ address: EmailAddress?) -> String {
        guard let address else { return unknownSender }
        if let name = address.name, name.contains(where: { !$0.isWhitespace }) { return name }
        let local = address.address.split(separator: "@", omittingEmptySubsequences: false).first ?? ""
        return local.isEmpty ? unknownSender : String(local)
    }

    /// The first of `name`, `name (2)`, `name (3)`… that `isTaken` does not claim.
    public static func firstFree(_ name: String, keepingExtension: Bool = true,
                                 isTaken: (String) throws -> Bool) rethrows -> String {
        var candidate = name
        var attempt = 1
        while try isTaken(candidate) {
            attempt += 1
            candidate = disambiguate(name, attempt: attempt, keepingExtension: keepingExtension)
        }
        return candidate
    }

    /// `name (2).eml` for attempt 2, `name (3).eml` for 3 …; the name itself for attempt 1
    /// or less. The stem is cut so the result still fits in `maxNameBytes`.
    public static func disambiguate(_ name: String, attempt: Int, keepingExtension: Bool = true) -> String {
        guard attempt > 1 else { return name }
        let parts = NameParts(name, keepingExtension: keepingExtension)
        let suffix = " (\(attempt))"
        let budget = maxNameBytes - suffix.utf8.count - parts.extensionWithDot.utf8.count
        let stem = droppingTrailingDotsAndSpaces(of: NameParts.cut(parts.stem, toBytes: budget))
        return (stem.isEmpty ? "_" : stem) + suffix + parts.extensionWithDot
    }
}

/// A date's UTC calendar day and time of day, as names show them, in the proleptic
/// Gregorian calendar of ISO 8601 (plain arithmetic: no Calendar, no time zone database).
struct UTCStamp {
    var day: String
    var time: String

    /// Years outside 1...9999 (a hostile or broken Date header) are clamped.
    init(_ date: Date) {
        let lowest: TimeInterval = -62_135_596_800   // 0001-01-01T00:00:00Z
        let highest: TimeInterval = 253_402_300_799  // 9999-12-31T23:59:59Z
        let raw = date.timeIntervalSince1970
        let seconds = Int((raw.isFinite ? min(max(raw, lowest), highest) : 0).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let civil = Self.civilDate(daysSinceEpoch: days)
        day = "\(Self.padded(civil.year, 4))-\(Self.padded(civil.month, 2))-\(Self.padded(civil.day, 2))"
        time = Self.padded(secondOfDay / 3600, 2) + Self.padded(secondOfDay % 3600 / 60, 2)
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
