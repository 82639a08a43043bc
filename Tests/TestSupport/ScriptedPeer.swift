import NIOCore
import NIOEmbedded

/// The server side of a protocol client under test, played by the test over an
/// `NIOAsyncTestingChannel`: it writes what the server says, reads what the client sends,
/// and moves time. The IMAP and SMTP tests add how their client is started on it.
///
///     try await server.play("""
///         C: A0002 LOGIN "alice" "secret"
///         S: A0002 OK Logged in
///         """)
public actor ScriptedPeer {
    public nonisolated let channel: NIOAsyncTestingChannel
    private var received: [UInt8] = []

    public init(channel: NIOAsyncTestingChannel = NIOAsyncTestingChannel()) {
        self.channel = channel
    }

    /// Connects the channel, as a socket would be before the client starts.
    public func activate(port: Int) async throws {
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: port))
    }

    /// Waits until the client's handler is in the pipeline, so nothing sent is lost.
    public func waitForClient<Handler: ChannelHandler & SendableMetatype>(handler: Handler.Type) async throws {
        for _ in 0..<1000 {
            if (try? await channel.pipeline.containsHandler(type: handler).get()) != nil { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw ScriptError.clientNeverStarted
    }

    /// Sends lines to the client; CRLF is appended to each.
    public func send(_ lines: String) async throws {
        let text = lines.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\r\n" }.joined()
        try await sendBytes(Array(text.utf8))
    }

    public func sendBytes(_ bytes: [UInt8]) async throws {
        try await channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    /// The next line the client sent, without CRLF; waits up to five seconds.
    public func clientLine() async throws -> String {
        for _ in 0..<2500 {
            if let end = received.firstIndex(of: 0x0A) {
                let line = received[..<end].last == 0x0D ? received[..<(end - 1)] : received[..<end]
                received.removeSubrange(...end)
                return String(decoding: line, as: UTF8.self)
            }
            if !(try await readOutbound()) { try await Task.sleep(for: .milliseconds(2)) }
        }
        throw ScriptError.clientSilent(pending: String(decoding: received, as: UTF8.self))
    }

    /// Moves what the client wrote into `received`; false when it wrote nothing new.
    private func readOutbound() async throws -> Bool {
        guard let buffer = try await channel.readOutbound(as: ByteBuffer.self) else { return false }
        received += buffer.readableBytesView
        return true
    }

    /// Everything the client sent that the test has not read yet.
    public func unreadBytes() async throws -> [UInt8] {
        await channel.testingEventLoop.run()
        while try await readOutbound() {}
        defer { received = [] }
        return received
    }

    /// Plays a transcript: each `C:` line must be what the client sends next (else the
    /// connection is closed and the play stops with `unexpected`), each `S:` line is sent
    /// to it; other lines are comments.
    public func play(_ transcript: String) async throws {
        for line in transcript.split(separator: "\n") {
            if line.hasPrefix("C: ") || line == "C:" {
                let expected = String(line.dropFirst(3))
                let got = try await clientLine()
                guard got == expected else {
                    // The client's command would otherwise wait forever for its answer, and
                    // with it the test and the whole run: a closed connection ends it.
                    try? await channel.close()
                    throw ScriptError.unexpected(expected: expected, got: got)
                }
            } else if line.hasPrefix("S: ") {
                try await send(String(line.dropFirst(3)))
            }
        }
    }

    public func advanceTime(by amount: TimeAmount) async {
        await channel.testingEventLoop.advanceTime(by: amount)
    }

    public func close() async throws {
        try await channel.close()
    }

    public enum ScriptError: Error, CustomStringConvertible {
        case clientNeverStarted
        case clientSilent(pending: String)
        case unexpected(expected: String, got: String)

        public var description: String {
            switch self {
            case .clientNeverStarted: return "the client never started"
            case .clientSilent(let pending): return "the client sent no full line; pending: \(pending.debugDescription)"
            case .unexpected(let expected, let got):
                return "the client sent \(got.debugDescription), the transcript expects \(expected.debugDescription)"
            }
        }
    }
}
