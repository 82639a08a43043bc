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
