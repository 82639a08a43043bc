/// A command written to an account's `.control` (one per line).
public enum ControlCommand: String, CaseIterable, Sendable {
    /// Sync now.
    case sync
    /// Forget the account's sync state and sync it again from scratch.
    case reset
    /// The mass-deletion guard's answers: the held deletions go ahead, or come back.
    case confirmDeletes = "confirm-deletes"
    case cancelDeletes = "cancel-deletes"
}
