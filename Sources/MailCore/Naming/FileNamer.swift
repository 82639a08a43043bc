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
