import IMAP

extension IMAPError {
    /// Errors after which the connection is unusable: the folder's sync stops and the
    /// cycle reconnects. Anything else (a NO for one command) only skips that item.
    var endsConnection: Bool {
        switch self {
        case .commandFailed, .capabilityMissing, .invalidArgument: return false
        default: return true
        }
    }
}

extension IMAPError {
    /// The mailbox is gone (another client deleted it after our LIST): RFC 5530's
    /// NONEXISTENT, or the words servers use without it (Dovecot 2.3 sends none for EXAMINE).
    var isMailboxGone: Bool {
        guard case .commandFailed(let failure) = self else { return false }
        if case .other(let name, _)? = failure.code, name.uppercased() == "NONEXISTENT" { return true }
        let text = failure.text.lowercased()
        return ["doesn't exist", "does not exist", "no such mailbox", "unknown mailbox"].contains { text.contains($0) }
    }
}
