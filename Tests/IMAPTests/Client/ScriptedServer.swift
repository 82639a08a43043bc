import Logging
import TestSupport

@testable import IMAP

/// The IMAP server of a client test (see `ScriptedPeer`).
typealias ScriptedServer = ScriptedPeer

extension ScriptedPeer {
    /// A server that greets with `greeting` (a `* OK [CAPABILITY …]` line spares the
    /// client a CAPABILITY round trip) and the client connected to it.
    static func connected(
        greeting: String = "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready",
        timeouts: IMAPTimeouts = IMAPTimeouts(), logger: Logger = Logger(label: "test"),
        alerts: @escaping AlertHandler = { _ in }
    ) async throws -> (ScriptedPeer, IMAPConnection) {
        let server = ScriptedPeer()
        try await server.activate()
        async let connection = IMAPConnection.start(on: server.channel, timeouts: timeouts, logger: logger,
                                                    alerts: alerts)
        try await server.waitForClient()
        try await server.send(greeting)
        return (server, try await connection)
    }

    func activate() async throws {
        try await activate(port: 143)
    }

    /// Waits until the IMAP client's handler is in the pipeline.
    func waitForClient() async throws {
        try await waitForClient(handler: IMAPClientHandler.self)
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
