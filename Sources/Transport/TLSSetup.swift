import NIOSSL

/// What it takes to start TLS on a connection, built before connecting: the context (TLS
/// 1.2+, verified certificates) and the name the certificate must carry (nil for an IP
/// host: its IP SAN is checked). The clients' handlers install it on their event loop,
/// at once (implicit TLS) or after STARTTLS.
public struct TLSSetup: Sendable {
    public var context: NIOSSLContext
    public var serverHostname: String?

    public init(context: NIOSSLContext, serverHostname: String?) {
        self.context = context
        self.serverHostname = serverHostname
    }

    /// The setup for connecting to `host` with `options`; throws when the CA file cannot be read.
    public init(options: TLSOptions, host: String) throws {
        self.init(context: try options.makeContext(), serverHostname: TLSOptions.serverHostname(for: host))
    }
}
