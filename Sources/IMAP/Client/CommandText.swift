/// Checks on caller-supplied text that goes into a command as is (flags, search
/// criteria, fetch items' sections): a CR or LF there would let it inject a second command.
enum CommandText {
    /// Bytes that cannot appear in an atom (RFC 3501 `atom-specials`, less `]`, which
    /// Gmail keywords contain).
    private static let atomSpecials = Set("(){ %*\"\\".utf8)

    static func isAtom(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !atomSpecials.contains($0) }
    }

    /// A flag: `\Seen`, `$Forwarded`, `Junk`.
    static func isFlag(_ text: String) -> Bool {
        isAtom(text.hasPrefix("\\") ? String(text.dropFirst()) : text)
    }

    static func requireAtoms(_ texts: [String], what: String) throws(IMAPError) {
        for text in texts where !isAtom(text) {
            throw .invalidArgument("\(what) is not an atom: \(text.debugDescription)")
        }
    }

    static func requireFlags(_ flags: [String]) throws(IMAPError) {
        for flag in flags where !isFlag(flag) {
            throw .invalidArgument("not a flag: \(flag.debugDescription)")
        }
    }

    /// Non-empty printable ASCII text for one line (search criteria, fetch items).
    static func requireLine(_ text: String, what: String) throws(IMAPError) {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw .invalidArgument("\(what) must be printable ASCII on one line")
        }
    }
}
