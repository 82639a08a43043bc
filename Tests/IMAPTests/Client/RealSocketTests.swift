import Transport
import Foundation
import Logging
import NIOCore
import NIOPosix
import TestSupport
import Testing

@testable import IMAP

/// The client over real TCP sockets against `LocalIMAPServer` on 127.0.0.1.
@Suite("Real sockets", .timeLimit(.minutes(5)))
struct RealSocketTests {
    private func connectPlain(
        port: Int, timeouts: IMAPTimeouts = IMAPTimeouts()
    ) async throws(IMAPError) -> IMAPConnection {
        try await IMAPConnection.connect(
            host: "127.0.0.1", port: port, transport: .plain, timeouts: timeouts, limits: ParserLimits(),
            logger: Logger(label: "test"), eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
    }

    @Test("a refused connection fails at once")
    func refused() async throws {
        let reserved = try ReservedPort()
        let result = await outcome { try await connectPlain(port: reserved.port) }
        guard case .connectFailed(let reason)? = result.imapError else {
            Issue.record("expected connectFailed, got \(result)")
            return
        }
        // What .status shows as the reason the account is offline: the errno's words.
        #expect(reason == "connection refused (127.0.0.1:\(reserved.port))")
    }

    @Test("a server that accepts but never greets times out")
    func silentServer() async throws {
        let server = try await LocalIMAPServer.start(greeting: nil)
        defer { Task { await server.stop() } }
        let result = await outcome {
            try await connectPlain(port: server.port, timeouts: IMAPTimeouts(connect: .milliseconds(300)))
        }
        // The error names the timeout that ended the wait: the 300 ms one, not the 120 s of
        // a command. No bound on wall time here (a stall of the whole machine stretched one past 30 s); a
        // hang is the suite's time limit.
        #expect(result.imapError == .timedOut(.milliseconds(300)))
    }

    @Test("a server closing mid-command fails the command promptly")
    func closedMidCommand() async throws {
        let server = try await LocalIMAPServer.start(greeting: "* OK [CAPABILITY IMAP4rev1] hi") { line in
            line.hasSuffix("NOOP") ? [.close] : []
        }
        defer { Task { await server.stop() } }
        let imap = try await connectPlain(port: server.port)
        let result = await outcome { try await imap.noop() }
        #expect(result.imapError == .connectionClosed)
    }

    @Test("a server going silent mid-command hits the response timeout")
    func silentMidCommand() async throws {
        let server = try await LocalIMAPServer.start(greeting: "* OK [CAPABILITY IMAP4rev1] hi")
        defer { Task { await server.stop() } }
        let imap = try await connectPlain(port: server.port, timeouts: IMAPTimeouts(response: .milliseconds(300)))
        let result = await outcome { try await imap.noop() }
        #expect(result.imapError == .timedOut(.milliseconds(300)))
    }

    @Test("STARTTLS not offered by a real server is refused")
    func startTLSNotOffered() async throws {
        let server = try await LocalIMAPServer.start(greeting: "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] hi")
        defer { Task { await server.stop() } }
        let result = await outcome {
            try await IMAPConnection.connect(host: "127.0.0.1", port: server.port, security: .starttls)
        }
        #expect(result.imapError == .startTLSNotOffered)
    }
}

/// TLS against a server with a certificate from a test CA (made with openssl).
@Suite("Real sockets with TLS", .timeLimit(.minutes(5)))
struct RealSocketTLSTests {
    static let shortTimeouts = IMAPTimeouts(connect: .seconds(5), response: .seconds(5))

    @Test("implicit TLS is verified against the extra CA file, by IP address")
    func implicitTLSWithTestCA() async throws {
        let certificate = try TestCertificate.make()
        defer { certificate.remove() }
        let server = try await LocalIMAPServer.start(
            greeting: "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] TLS ready", tls: try certificate.serverContext(),
            implicitTLS: true)
        defer { Task { await server.stop() } }
        let imap = try await IMAPConnection.connect(
            host: "127.0.0.1", port: server.port, security: .tls,
            tls: TLSOptions(extraCAFile: certificate.certificatePath), timeouts: Self.shortTimeouts)
        #expect(imap.supports(.authPlain))
        await imap.close()
    }

    @Test("a certificate from an unknown CA is refused")
    func untrustedCertificate() async throws {
        let certificate = try TestCertificate.make()
        defer { certificate.remove() }
        let server = try await LocalIMAPServer.start(
            greeting: "* OK hi", tls: try certificate.serverContext(), implicitTLS: true)
        defer { Task { await server.stop() } }
        let result = await outcome {
            try await IMAPConnection.connect(
                host: "127.0.0.1", port: server.port, security: .tls, timeouts: Self.shortTimeouts)
        }
        #expect(result.imapError == .tls(.untrustedCertificate), "\(result)")
    }

    @Test("a certificate for another host name is refused")
    func wrongHostName() async throws {
        let certificate = try TestCertificate.make(ipSAN: false)
        defer { certificate.remove() }
        let server = try await LocalIMAPServer.start(
            greeting: "* OK hi", tls: try certificate.serverContext(), implicitTLS: true)
        defer { Task { await server.stop() } }
        let result = await outcome {
            try await IMAPConnection.connect(
                host: "localhost", port: server.port, security: .tls,
                tls: TLSOptions(extraCAFile: certificate.certificatePath), timeouts: Self.shortTimeouts)
        }
        #expect(result.imapError == .tls(.untrustedCertificate), "\(result)")
    }

    @Test("STARTTLS upgrades and the capabilities are asked again over TLS")
    func startTLS() async throws {
        let certificate = try TestCertificate.make()
        defer { certificate.remove() }
        let server = try await LocalIMAPServer.start(
            greeting: "* OK [CAPABILITY IMAP4rev1 STARTTLS LOGINDISABLED] plaintext",
            tls: try certificate.serverContext()
        ) { line in
            if line.hasSuffix(" STARTTLS") { return [.sendThenStartTLS("A0001 OK Begin TLS negotiation now")] }
            if line.hasSuffix(" CAPABILITY") {
                return [.send("* CAPABILITY IMAP4rev1 AUTH=PLAIN"), .send("A0002 OK done")]
            }
            return []
        }
        defer { Task { await server.stop() } }
        let imap = try await IMAPConnection.connect(
            host: "127.0.0.1", port: server.port, security: .starttls,
            tls: TLSOptions(extraCAFile: certificate.certificatePath), timeouts: Self.shortTimeouts)
        #expect(imap.capabilities == ["IMAP4REV1", "AUTH=PLAIN"])
        await imap.close()
    }
}
