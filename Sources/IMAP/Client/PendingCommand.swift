import Transport
import NIOCore
import NIOSSL

/// A command on its way to the handler: its bytes, how to answer continuation requests,
/// which untagged responses belong to its result, and where the result goes.
///
/// The handler assigns the tag when it sends the command, so tags follow the order of
/// the wire (A0001, A0002, …) whatever order callers submit in.
struct PendingCommand: Sendable {
    /// What `CommandFailure.command` and the log call it (`UID FETCH`).
    var name: String
    /// The command as the log shows it, secrets replaced by `<redacted>`.
    var logLine: String
    /// The first segment is sent with the tag at once; each later one after a `+`
    /// (the bytes of a synchronizing literal and the rest of the line).
    var segments: [[UInt8]]
    /// A SASL exchange: a `+` with no segment left is a server challenge (XOAUTH2's
    /// error JSON), answered with an empty line so the server sends its tagged NO.
    var answersChallengesWithEmptyLine = false
    /// Whether an untagged response is part of this command's result rather than an event.
    var claims: @Sendable (UntaggedResponse) -> Bool = { _ in false }
    /// STARTTLS: install TLS as soon as the tagged OK is read, before any further byte.
    var tlsUpgrade: TLSSetup?
    /// IDLE: its progress, which ends it with DONE rather than a tag.
    var idle: IdleState?
    /// A FETCH whose body literal is streamed rather than kept in the result.
    var literalSink: LiteralSink?
    var promise: EventLoopPromise<CommandResult>
}

/// What the server answered to one command: its tagged status (OK, NO or BAD) and the
/// untagged responses it claimed. NO and BAD are turned into errors by the caller, which
/// knows whether it was an authentication.
struct CommandResult: Sendable {
    var name: String
    var state: ResponseState
    var untagged: [UntaggedResponse]
    /// The last `+` text the server sent with no segment left to answer it (SASL).
    var lastChallenge: String?
    /// Why an IDLE command ended; nil for other commands.
    var idleOutcome: IdleOutcome?

    /// The result, or the server's NO/BAD as `IMAPError.commandFailed`.
    func requireOK() throws(IMAPError) -> CommandResult {
        guard state.status == .ok else { throw .commandFailed(failure) }
        return self
    }

    var failure: CommandFailure {
        CommandFailure(command: name, status: state.status, code: state.code, text: state.text)
    }
}

/// The server's first words.
struct Greeting: Sendable, Equatable {
    /// `* PREAUTH`: the session is already authenticated.
    var preauthenticated: Bool
    var state: ResponseState
}
