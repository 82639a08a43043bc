import MailCore
import Store

/// What became of a file closed in outbox/.
public enum OutboxSubmission: Sendable, Equatable {
    /// Committed to the send queue.
    case queued
    /// Refused by the account's sending rules; the reason is already in `.log` and `.status`.
    case refused(OutgoingRejection)
    /// The file was removed while it was being checked.
    case gone
}

/// The sending side of the mount: each account's sender implements it and owns what the
/// tree must not decide (docs/ARCHITECTURE.md, "Who owns which state"): the rules a message
/// must meet (From, aliases, the server's SIZE), the undo delay, and `outbox_error`. The
/// tree keeps the file-system side: names, drafts, listings and errnos.
public protocol OutboxService: Sendable {
    /// Whether files may be created in the account's outbox/: false without
    /// `[accounts.NAME.smtp]` or for an offline account.
    func acceptsMail(accountId: Int64) -> Bool
    /// Checks the bytes of a closed file against the account's rules and commits them to the
    /// queue in place of its draft row, or refuses them and records why. nil: the account
    /// cannot send.
    func submit(_ draft: OutboxItem, bytes: [UInt8]) throws -> OutboxSubmission?
    /// A file refused before it could be checked (closed empty): recorded like a refusal.
    func refused(_ draft: OutboxItem, reason: String)
    /// A message was queued, removed or queued again: look at the account's queue now.
    func queueChanged(accountId: Int64)
}
