import Transport
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A tiny IMAP server on 127.0.0.1 for tests over real sockets: it greets, then answers
/// each line the client sends with the replies `respond` returns.
final class LocalIMAPServer: Sendable {
    enum Reply: Sendable {
        case send(String)
        /// Sends the line, then switches the connection to TLS (STARTTLS).
        case sendThenStartTLS(String)
        case close
    }

    let channel: any Channel
    var port: Int { channel.localAddress?.port ?? 0 }

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// `greeting` nil: accept and stay silent. `tls`: implicit TLS, or the STARTTLS context.
    static func start(
        greeting: String?, tls: NIOSSLContext? = nil, implicitTLS: Bool = false,
        respond: @escaping @Sendable (String) -> [Reply] = { _ in [] }
    ) async throws -> LocalIMAPServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    if implicitTLS, let tls {
                        try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                    }
                    try child.pipeline.syncOperations.addHandler(
                        ScriptHandler(greeting: greeting, tls: tls, respond: respond))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return LocalIMAPServer(channel: channel)
    }

    func stop() async {
        try? await channel.close()
    }
}

private final class ScriptHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let greeting: String?
    private let tls: NIOSSLContext?
    private let respond: @Sendable (String) -> [LocalIMAPServer.Reply]
    private var pending: [UInt8] = []

    init(greeting: String?, tls: NIOSSLContext?, respond: @escaping @Sendable (String) -> [LocalIMAPServer.Reply]) {
        self.greeting = greeting
        self.tls = tls
        self.respond = respond
    }

    func channelActive(context: ChannelHandlerContext) {
        if let greeting { write(greeting, context: context) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pending += unwrapInboundIn(data).readableBytesView
        while let end = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[..<end], as: UTF8.self)
                .trimmingCharacters(in: .newlines)
            pending.removeSubrange(...end)
            for reply in respond(line) {
                switch reply {
                case .send(let text): write(text, context: context)
                case .close: context.close(promise: nil)
                case .sendThenStartTLS(let text):
                    write(text, context: context)
                    if let tls {
                        try? context.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls), position: .first)
                    }
                }
            }
        }
    }

    private func write(_ text: String, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text + "\r\n")), promise: nil)
    }
}

/// A self-signed certificate made with the openssl tool, usable as its own CA (the test
/// CA of `TLSOptions.extraCAFile`). NIOSSL accepts an IP SAN that matches the peer's
/// address even when a host name was given, so a host name test needs `ipSAN: false`.
struct TestCertificate {
    let directory: URL
    var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
    var keyPath: String { directory.appendingPathComponent("key.pem").path }

    static func make(ipSAN: Bool = true) throws -> TestCertificate {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("imapclient-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = TestCertificate(directory: directory)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", certificate.keyPath, "-out", certificate.certificatePath, "-days", "2",
            "-subj", "/CN=imap.test", "-addext", "subjectAltName=DNS:imap.test" + (ipSAN ? ",IP:127.0.0.1" : ""),
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return certificate
    }

    func serverContext() throws -> NIOSSLContext {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificatePath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: keyPath, format: .pem)))
        return try NIOSSLContext(configuration: configuration)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
