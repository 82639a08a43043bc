/// What the store needs to know about an account to turn a file operation into journal
/// rows: whether there is a server at all, Gmail's label semantics, and the guard.
public struct WriteContext: Sendable, Equatable {
    public var accountId: Int64
    /// Imported accounts: changes apply to the store only, at once.
    public var isOffline: Bool
    public var isGmail: Bool
    /// Deletions beyond this many within 60 s are held; 0 turns the guard off.
    public var deleteGuard: Int
    /// `delete_without_trash`: rm deletes for good when the account has no Trash folder,
    /// instead of being refused.
    public var deletesWithoutTrash: Bool

    public init(accountId: Int64, isOffline: Bool, isGmail: Bool, deleteGuard: Int, deletesWithoutTrash: Bool = false) {
        self.accountId = accountId
        self.isOffline = isOffline
        self.isGmail = isGmail
        self.deleteGuard = deleteGuard
        self.deletesWithoutTrash = deletesWithoutTrash
    }
}

/// The message operations of the tree (docs/REQUIREMENTS.md §C4), as the journal records them.
public enum MessageOperation: Sendable, Equatable {
    /// `rm` in a folder: to Trash; in trash/ or spam/: for good; without a Trash: refused
    /// (`LocalChangeError.noTrash`) unless the context allows deleting for good.
    case remove(fromFolder: Int64)
    /// `rm` in archive/.
    case removeArchived
    /// `mv` from one folder to another.
    case move(fromFolder: Int64, toFolder: Int64)
    /// `mv` into archive/: Gmail drops the folder's label; others move to \Archive.
    case archive(fromFolder: Int64)
    /// `mv` out of archive/ into a folder.
    case unarchive(toFolder: Int64)
}

/// What recording an operation did.
public enum RecordOutcome: Sendable, Equatable {
    /// Applied locally; the journal will apply it on the server.
    case recorded
    /// A deletion held by the mass-deletion guard, which held others before it.
    case held
    /// The deletion the mass-deletion guard started holding at.
    case trippedGuard
}
