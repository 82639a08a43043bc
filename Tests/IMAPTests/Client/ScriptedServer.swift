import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import IMAP

/// A server played by the test over an `NIOAsyncTestingChannel`: it writes what the
/// server says and reads what the client sends, with time under the test's control.
///
///     try await server.play("""
///         C: A0002 LOGIN "alice" "secret"
///         S: A0002 OK Logged in
///         """)
actor ScriptedServer {
    let channel: NIOAsyncTestingChannel
    private var received: [UInt8] = []

    init(channel: NIOAsyncTestingChannel = NIOAsyncTestingChannel()) {
        self.channel = channel
    }

    /// A server that greets with `greeting` (a `* OK [CAPABILITY …]` line spares the
    /// client a CAPABILITY round trip) and the client connected to it.
    static func connected(
        greeting: String = "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready",
        timeouts: IMAPTimeouts = IMAPTimeouts(), logger: Logger = Logger(label: "test")
    ) async throws -> (ScriptedServer, IMAPConnection) {
        let server = ScriptedServer()
        try await server.activate()
        async let connection = IMAPConnection.start(on: server.channel, timeouts: timeouts, logger: logger)
        try await server.waitForClient()
        try await server.send(greeting)
        return (server, try await connection)
    }

    func activate() async throws {
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 143))
    }

    /// Waits until the client's handler is in the pipeline, so nothing sent is lost.
    func waitForClient() async throws {
        for _ in 0..<1000 {
            if (try? await channel.pipeline.containsHandler(type: IMAPClientHandler.self).get()) != nil { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw ScriptError.clientNeverStarted
    }

    /// Sends lines to the client; CRLF is appended to each.
    func send(_ lines: String) async throws {
        let text = lines.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0 + "\r\n" }.joined()
        try await sendBytes(Array(text.utf8))
    }

    func sendBytes(_ bytes: [UInt8]) async throws {
        try await channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    /// The next line the client sent, without CRLF; waits up to five seconds.
    func clientLine() async throws -> String {
        for _ in 0..<2500 {
            if let end = received.firstIndex(of: 0x0A) {
                let line = received[..<end].last == 0x0D ? received[..<(end - 1)] : received[..<end]
                received.removeSubrange(...end)
                return String(decoding: line, as: UTF8.self)
            }
            if let buffer = try await channel.readOutbound(as: ByteBuffer.self) {
                received += buffer.readableBytesView
            } else {
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        throw ScriptError.clientSilent(pending: String(decoding: received, as: UTF8.self))
    }

    /// Whatever the client sent that has not been read yet.
    func unreadBytes() async throws -> [UInt8] {
        await channel.testingEventLoop.run()
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) {
            received += buffer.readableBytesView
        }
        defer { received = [] }
        return received
    }

    /// Plays a transcript: `C:` lines must be what the client sends next, `S:` lines
    /// are sent to it. Other lines are ignored.
    func play(_ transcript: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for line in transcript.split(separator: "\n") {
            if line.hasPrefix("C: ") || line == "C:" {
                let got = try await clientLine()
                #expect(got == String(line.dropFirst(3)), sourceLocation: sourceLocation)
            } else if line.hasPrefix("S: ") {
                try await send(String(line.dropFirst(3)))
            }
        }
    }

    func advanceTime(by amount: TimeAmount) async {
        await channel.testingEventLoop.advanceTime(by: amount)
    }

    enum ScriptError: Error {
        case clientNeverStarted
        case clientSilent(pending: String)
    }
}

/// The outcome of an async throwing call as a value, so tests can assert on the error.
func outcome<T: Sendable>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

extension Result {
    /// The IMAP error, or nil on success or another error.
    var imapError: IMAPError? {
        if case .failure(let error) = self { error as? IMAPError } else { nil }
    }
}
