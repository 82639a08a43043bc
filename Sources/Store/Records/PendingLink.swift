import GRDB

/// A message's link to a folder (`emailFolder.pending`) while a local change to it is not
/// yet applied on the server; NULL when the link is the server's.
public enum PendingLink: String, Sendable {
    /// Moved or deleted here, not yet on the server: the tree no longer lists it.
    case leaving
    /// Moved or copied here, not yet confirmed by the server: listed, with no UID yet.
    case arriving

    /// The value as an SQL literal, for statements and triggers.
    var sql: String { "'\(rawValue)'" }
}

/// A folder operation done locally and not yet applied on the server (`folder.localState`);
/// the sync engine leaves such folders alone.
public enum FolderLocalState: String, Sendable, Codable {
    case creating, renaming, deleting
    /// `lost+found/`: a folder of the store only, never sent to a server (`LostAndFound`).
    case local

    /// The value as an SQL literal, for statements.
    var sql: String { "'\(rawValue)'" }
}

extension FolderLocalState: DatabaseValueConvertible {}
