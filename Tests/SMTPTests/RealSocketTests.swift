import Logging
import NIOCore
import NIOPosix
import SMTP
import TestSupport
import Testing

/// The connection over real sockets on 127.0.0.1, with no mail server: refused, silent.
@Suite("SMTP over real sockets", .timeLimit(.minutes(5)))
struct RealSocketTests {
    @Test("a refused connection is a transient connect failure")
    func refused() async throws {
        let reserved = try ReservedPort()
        let result = await Result(awaiting: { () async throws(SMTPError) -> SMTPDeliveryReport in
            try await SMTPClient.send(.sample, to: SMTPEndpoint(host: "127.0.0.1", port: reserved.port, security: .tls),
                                      credential: .sample)
        })
        guard case .failure(let error) = result, case .connectFailed = error else {
            Issue.record("got \(result)")
            return
        }
        #expect(error.isTransient)
    }

    @Test("a server that accepts and never speaks times out instead of hanging", arguments: [SMTPSecurity.tls, .starttls])
    func silentServer(security: SMTPSecurity) async throws {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        defer { listener.close(promise: nil) }
        let port = try #require(listener.localAddress?.port)
        let result = await Result(awaiting: { () async throws(SMTPError) -> SMTPDeliveryReport in
            try await SMTPClient.send(.sample, to: SMTPEndpoint(host: "127.0.0.1", port: port, security: security),
                                      credential: .sample, timeouts: SMTPTimeouts(connect: .milliseconds(300)), logger: .quiet)
        })
        guard case .failure(let error) = result else {
            Issue.record("got \(result)")
            return
        }
        // The error names the timeout that ended the wait: the 300 ms one, not the 120 s of
        // a command. No bound on wall time here (a stall of the whole machine stretched one past 30 s); a
        // hang is the suite's time limit.
        #expect(error == .timedOut(.milliseconds(300)))
    }

    @Test("cancelling the task closes the connection and ends the wait")
    func cancellation() async throws {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        defer { listener.close(promise: nil) }
        let port = try #require(listener.localAddress?.port)
        let task = Task {
            try await SMTPClient.send(.sample, to: SMTPEndpoint(host: "127.0.0.1", port: port, security: .starttls),
                                      credential: .sample)
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let result = await task.result
        guard case .failure(let error as SMTPError) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(error == .connectionClosed)
    }
}
