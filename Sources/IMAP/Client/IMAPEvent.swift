/// Something the server said outside the result of a command, delivered on
/// `IMAPConnection.events` in arrival order.
///
/// Untagged responses may come at any time, during any command (docs/IMAP-QUIRKS.md §1.6):
/// EXISTS, EXPUNGE, VANISHED, a FETCH of flags changed by another client, or of UIDs
/// outside the range a UID FETCH asked for. They belong to mailbox state, so a command
/// keeps only what it asked for and everything else lands here.
public enum IMAPEvent: Sendable, Equatable {
    /// An untagged response no command claimed (`* 4 EXISTS`, `* 2 FETCH (FLAGS …)`,
    /// `* VANISHED …`, `* BYE …`).
    case untagged(UntaggedResponse)
    /// `[ALERT]` text, tagged or untagged: it must reach the user.
    case alert(String)
}

/// Called on the connection's event loop with the text of each `[ALERT]` the server sends,
/// on every connection, whether or not anyone reads `events`: RFC 3501 §7.1 says the text
/// MUST be presented to the user. It must not block.
public typealias AlertHandler = @Sendable (String) -> Void
