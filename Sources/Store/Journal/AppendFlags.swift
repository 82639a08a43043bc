import MailCore

/// The IMAP flags an APPEND carries, stored in the row's `flag` column.
public enum AppendFlags {
    static func text(_ flags: MessageFlags) -> String {
        var names: [String] = []
        if flags.seen { names.append("\\Seen") }
        if flags.flagged { names.append("\\Flagged") }
        if flags.draft { names.append("\\Draft") }
        if flags.answered { names.append("\\Answered") }
        return names.joined(separator: " ")
    }

    public static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: " ").map(String.init)
    }
}
