import Foundation
import MailCore

/// How new files of an account's outbox/ are checked and when they may leave.
public struct SendingPolicy: Sendable {
    public var outgoing: OutgoingPolicy
    /// `undo_seconds`: a new message waits this long, so `rm` can still cancel it.
    public var undoDelay: TimeInterval

    public init(outgoing: OutgoingPolicy, undoDelay: TimeInterval) {
        self.outgoing = outgoing
        self.undoDelay = undoDelay
    }
}

/// The sending side of the mount (the sync engine's senders implement it).
public protocol OutboxService: Sendable {
    /// nil when the account cannot send (no `[accounts.NAME.smtp]`, or offline).
    func sendingPolicy(accountId: Int64) -> SendingPolicy?
    /// A message was queued, removed or queued again: look at the account's queue now.
    func queueChanged(accountId: Int64)
}
