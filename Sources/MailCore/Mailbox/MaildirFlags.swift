/// The standard flags of a Maildir file name's info suffix: `…:2,FRS` (`!2,` on
/// filesystems where `:` is not allowed, as some Maildir tools write).
///
/// Letters are the uppercase ones of the Maildir spec: P passed, R replied, S seen,
/// T trashed, D draft, F flagged. Lowercase letters are Dovecot keywords and are
/// ignored, as is an experimental `:1,` suffix or a name without a suffix.
///
///     MaildirFlags.parse(fileName: "1529425589.M615261P21663.len:2,RS")   // seen, answered
public struct MaildirFlags: Sendable, Hashable {
    public var seen = false
    public var flagged = false
    public var answered = false
    public var draft = false
    public var trashed = false
    public var passed = false

    public init(seen: Bool = false, flagged: Bool = false, answered: Bool = false, draft: Bool = false,
                trashed: Bool = false, passed: Bool = false) {
        self.seen = seen
        self.flagged = flagged
        self.answered = answered
        self.draft = draft
        self.trashed = trashed
        self.passed = passed
    }

    public static func parse(fileName: String) -> MaildirFlags {
        var flags = MaildirFlags()
        guard let letters = infoLetters(of: fileName) else { return flags }
        for letter in letters {
            switch letter {
            case "S": flags.seen = true
            case "F": flags.flagged = true
            case "R": flags.answered = true
            case "D": flags.draft = true
            case "T": flags.trashed = true
            case "P": flags.passed = true
            default: continue
            }
        }
        return flags
    }

    /// The text after the last `:2,` or `!2,` of the name's last path component.
    private static func infoLetters(of fileName: String) -> Substring? {
        let base = fileName.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let separator = base.lastIndex(where: { $0 == ":" || $0 == "!" }) else { return nil }
        let info = base[base.index(after: separator)...]
        guard info.hasPrefix("2,") else { return nil }
        return info.dropFirst(2)
    }
}
