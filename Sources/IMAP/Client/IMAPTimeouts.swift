/// How long the client waits before it gives up on a silent server.
public struct IMAPTimeouts: Sendable, Equatable {
    /// TCP connect, and then the server's greeting.
    public var connect: Duration
    /// Longest silence from the server while a command is outstanding; any byte received
    /// (or written, during a long upload) restarts it.
    public var response: Duration

    public init(connect: Duration = .seconds(30), response: Duration = .seconds(120)) {
        self.connect = connect
        self.response = response
    }
}
