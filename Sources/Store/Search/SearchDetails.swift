/// A search result as `mailfs search --json` describes it.
public struct SearchDetails: Sendable, Equatable {
    public var messageId: String?
    public var subject: String
    public var fromName: String
    public var fromAddress: String
    /// The message's directory in `threads/` (what `thread:` takes).
    public var thread: String?
    /// Tree paths of the folders that list the message (none: it is in `archive/`).
    public var folders: [String] = []
}
