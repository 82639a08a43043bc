import Synchronization

/// When an account's `.log` gets the mass-deletion guard's line: at the deletion that trips
/// the guard, then at every 500th deletion it holds after that, so an `rm -rf` of thousands
/// of files writes a few lines, not one per file. The deletions are counted here, in
/// memory: counting the journal's held rows at every file made a held `rm` slower with each
/// file. A mount started while deletions are held counts from its first held one.
final class HeldDeletionReports: Sendable {
    static let interval = 500
    private let heldSinceTrip = Mutex<[Int64: Int]>([:])

    /// Notes one held deletion; whether it gets a line.
    func noteHeld(accountId: Int64, trippedGuard: Bool) -> Bool {
        heldSinceTrip.withLock { counts in
            let count = trippedGuard ? 1 : counts[accountId, default: 0] + 1
            counts[accountId] = count
            return trippedGuard || count.isMultiple(of: Self.interval)
        }
    }
}
