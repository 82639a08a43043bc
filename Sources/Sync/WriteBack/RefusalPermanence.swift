import IMAP
import Store

/// Whether a server's NO or BAD to a journal change can turn into an OK by waiting: a
/// refusal that cannot is not retried (5 s, 15 s, 45 s for nothing) but given up at once
/// (`ChangeStateMachine`, `.refusedForGood`): a flag or a move is reverted, an APPEND's
/// message goes to `lost+found/`.
///
/// Permanent:
/// - BAD: the server cannot parse the command; the same bytes get the same answer.
/// - RFC 5530 and RFC 3501 codes that name the request or the account, not the moment:
///   `[TRYCREATE]` and `[NONEXISTENT]` (the mailbox is gone), `[CANNOT]` (never
///   possible), `[LIMIT]`, `[OVERQUOTA]` (the user must make room first), `[NOPERM]`,
///   `[ALREADYEXISTS]`, `[CLIENTBUG]`, `[PARSE]`.
/// - An APPEND's NO with no code or an unknown one: RFC 3501 §6.3.11 gives its causes as
///   the message, its flags or date, or the mailbox, none of which a retry of the same
///   row changes (Cyrus: `NO Message contains bare newlines`; Dovecot: `NO Mail too
///   large`). The one such NO that was about the session (Courier's `Current box is
///   selected READ-ONLY`) no longer happens: the connection closes the mailbox first.
/// - A CREATE's or RENAME's NO with no code or an unknown one: RFC 3501 §6.3.3 and §6.3.5
///   give the name as its cause, and servers forbid different characters without saying
///   which (Cyrus and Courier: a bare `NO Invalid mailbox name`); waiting changes no name.
///
/// Everything else is retried: `[UNAVAILABLE]`, `[INUSE]`, `[SERVERBUG]`,
/// `[EXPUNGEISSUED]`, `[CORRUPTION]` say so, and a bare NO to STORE, MOVE, COPY or
/// DELETE may be a lock or a race with another client.
enum RefusalPermanence {
    static func isPermanent(_ failure: CommandFailure) -> Bool {
        if failure.status == .bad { return true }
        switch failure.code {
        case .tryCreate?, .parse?: return true
        case .other(let name, _)? where permanentCodes.contains(name.uppercased()): return true
        case .other(let name, _)? where transientCodes.contains(name.uppercased()): return false
        default: return namedCauseCommands.contains(failure.command)
        }
    }

    /// The state machine's event for a NO or BAD.
    static func event(for error: IMAPError) -> ChangeStateMachine.Event {
        guard case .commandFailed(let failure) = error, isPermanent(failure) else { return .refused(error.description) }
        return .refusedForGood(error.description)
    }

    static let permanentCodes: Set<String> = [
        "NONEXISTENT", "CANNOT", "LIMIT", "OVERQUOTA", "NOPERM", "ALREADYEXISTS", "CLIENTBUG",
    ]
    /// Commands whose bare NO is about what they name, not the moment.
    static let namedCauseCommands: Set<String> = ["APPEND", "CREATE", "RENAME"]
    static let transientCodes: Set<String> = ["UNAVAILABLE", "INUSE", "SERVERBUG", "EXPUNGEISSUED", "CORRUPTION"]
}
