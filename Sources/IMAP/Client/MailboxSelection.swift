/// Which mailbox a connection has open, and how to close it before a command that some
/// servers refuse on an open mailbox.
///
/// Courier answers `APPEND` to the mailbox the same connection has EXAMINEd with
/// `NO Current box is selected READ-ONLY`, and `DELETE` of it with `NO Cannot delete
/// currently-open folder`; RENAME of an open mailbox is refused or leaves the session
/// pointing at a name that no longer exists. So the connection closes the mailbox first:
///
///     UNSELECT (RFC 3691) where offered: closes without expunging, in every case;
///     CLOSE when the mailbox is open read-only (EXAMINE, or a SELECT answered
///         [READ-ONLY]): RFC 3501 §6.4.2, nothing is expunged then;
///     EXAMINE, then CLOSE, when it is open read-write: a CLOSE there would expunge every
///         \Deleted message, other clients' marks included. The EXAMINE makes it
///         read-only first; the CLOSE is sent only if the server confirmed that.
///
/// Selecting a mailbox that does not exist would also leave none selected (RFC 3501
/// §6.3.1), but relies on a failure path servers implement unevenly; EXAMINE-then-CLOSE
/// only uses the two commands' documented success paths.
public struct MailboxSelection: Sendable, Equatable {
    /// The raw (modified UTF-7) name, as sent.
    public var name: String
    public var readOnly: Bool

    public init(name: String, readOnly: Bool) {
        self.name = name
        self.readOnly = readOnly
    }

    /// What to send before a command on `mailbox`.
    public enum Departure: Sendable, Equatable {
        /// Nothing is open, or another mailbox is.
        case none
        case unselect
        case close
        case examineThenClose
    }

    /// The one rule: a connection sends APPEND, DELETE and RENAME of a mailbox only while
    /// that mailbox is not open on it.
    public static func departure(from selected: MailboxSelection?, before mailbox: String,
                                 canUnselect: Bool) -> Departure {
        guard let selected, selected.name == mailbox else { return .none }
        if canUnselect { return .unselect }
        return selected.readOnly ? .close : .examineThenClose
    }
}
