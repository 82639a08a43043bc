import Logging
import NIOCore
import Synchronization

/// One authenticated-or-not IMAP session over SwiftNIO, used with async/await.
///
///     let imap = try await IMAPConnection.connect(host: "imap.example.com", port: 993, security: .tls)
///     try await imap.login(user: "alice", password: secret)
///     let inbox = try await imap.select("INBOX")
///     let uids = try await imap.uidSearch(.since(lastWeek))
///
/// Commands are sent one at a time in call order. Every untagged response a command did
/// not ask for (EXISTS, EXPUNGE, flag FETCHes, VANISHED, BYE) arrives on `events`.
/// Every error thrown is an `IMAPError`; a silent or vanished server fails the pending
/// command within `IMAPTimeouts.response`, it never hangs.
public actor IMAPConnection {
    /// Unsolicited server news, in arrival order; finishes when the connection closes.
    /// Holds at most `eventBufferLimit` unread events (the oldest are dropped first).
    public nonisolated let events: AsyncStream<IMAPEvent>
    public static let eventBufferLimit = 10_000

    /// The server's capabilities, upper-cased (`IMAP4REV1`, `AUTH=PLAIN`, `MOVE`).
    /// Refreshed after STARTTLS and after authentication, when servers may add some.
    /// Readable without `await`, as is `isAuthenticated`.
    public internal(set) nonisolated var capabilities: Set<String> {
        get { session.withLock { $0.capabilities } }
        set { session.withLock { $0.capabilities = newValue } }
    }

    public internal(set) nonisolated var isAuthenticated: Bool {
        get { session.withLock { $0.authenticated } }
        set { session.withLock { $0.authenticated = newValue } }
    }

    private struct SessionFacts {
        var capabilities: Set<String> = []
        var authenticated = false
    }

    private let session = Mutex(SessionFacts())

    let channel: any Channel
    let logger: Logger
    /// The mailbox SELECT or EXAMINE opened here, as the server confirmed it; nil when
    /// none is (`MailboxSelection` decides what this means for APPEND, DELETE, RENAME).
    var selection: MailboxSelection?

    init(channel: any Channel, events: AsyncStream<IMAPEvent>, logger: Logger) {
        self.channel = channel
        self.events = events
        self.logger = logger
    }

    deinit {
        channel.close(promise: nil)
    }

    /// Whether the server advertises `capability`.
    public nonisolated func supports(_ capability: Capability) -> Bool {
        capabilities.contains(capability.name)
    }

    /// Whether the socket is still open (a server restart closes idle connections).
    public nonisolated var isOpen: Bool { channel.isActive }

    /// Closes the connection without LOGOUT.
    public func close() async {
        try? await channel.close()
    }

    /// Sends a command built by `build` and waits for its tagged reply (OK, NO or BAD).
    func run(
        _ name: String,
        claims: @escaping @Sendable (UntaggedResponse) -> Bool = { _ in false },
        configure: (inout PendingCommand) -> Void = { _ in },
        _ build: (inout CommandBuilder) -> Void
    ) async throws(IMAPError) -> CommandResult {
        var builder = CommandBuilder(literals: .init(capabilities: capabilities))
        build(&builder)
        var command = builder.command(name: name, promise: channel.eventLoop.makePromise())
        command.claims = claims
        configure(&command)
        return try await send(command)
    }

    /// `run`, with NO and BAD thrown as `IMAPError.commandFailed`.
    func execute(
        _ name: String,
        claims: @escaping @Sendable (UntaggedResponse) -> Bool = { _ in false },
        _ build: (inout CommandBuilder) -> Void
    ) async throws(IMAPError) -> CommandResult {
        try await run(name, claims: claims, build).requireOK()
    }

    private func send(_ command: PendingCommand) async throws(IMAPError) -> CommandResult {
        do {
            try await channel.writeAndFlush(command)
        } catch {
            // A closed channel never reached the handler: nobody else completes the promise.
            command.promise.fail(IMAPError.connectionClosed)
        }
        // A stop from a cancellation just before the write found no IDLE to end.
        if command.idle != nil, Task.isCancelled { stopIdle() }
        do {
            return try await command.promise.futureResult.get()
        } catch {
            throw IMAPClientHandler.imapError(for: error)
        }
    }
}
