/// One mailbox of a LIST / LSUB / XLIST reply:
///
///     * LIST (\HasNoChildren \Sent) "/" "Sent"
///     * LIST (\Noselect) "." {9}
///     Entw&APw-
///
/// The name is kept exactly as the server sent it: modified UTF-7 (RFC 3501 §5.1.3)
/// is decoded by the caller with `MailCore.ModifiedUTF7`, because the raw name is
/// what later commands must quote back to the server.
public struct MailboxListEntry: Sendable, Equatable {
    /// Attributes lower-cased, backslash kept: `\noselect`, `\haschildren`, `\sent`, `\all`.
    public var attributes: [String]
    /// The hierarchy delimiter; nil when the server sent NIL (a flat namespace).
    public var delimiter: Character?
    /// The raw bytes of the name, as sent (quoted, literal or atom).
    public var rawName: [UInt8]

    /// The raw name as text; not decoded from modified UTF-7.
    public var name: String { String(decoding: rawName, as: UTF8.self) }

    public init(attributes: [String], delimiter: Character?, rawName: [UInt8]) {
        self.attributes = attributes
        self.delimiter = delimiter
        self.rawName = rawName
    }

    public init(attributes: [String], delimiter: Character?, name: String) {
        self.init(attributes: attributes, delimiter: delimiter, rawName: Array(name.utf8))
    }

    /// Whether the mailbox carries `attribute` (compared case-insensitively).
    public func has(_ attribute: String) -> Bool {
        attributes.contains(attribute.lowercased())
    }
}
