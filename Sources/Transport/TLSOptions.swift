import NIOCore
import NIOSSL

/// TLS settings: TLS 1.2 or later, full certificate and host name verification.
///
/// `extraCAFile` adds a PEM file of CA certificates to the system roots (a test CA, a
/// company CA); it never replaces them, so one setting works for a real account too.
public struct TLSOptions: Sendable, Equatable {
    public var extraCAFile: String?

    public init(extraCAFile: String? = nil) {
        self.extraCAFile = extraCAFile
    }

    /// The client context; throws when the CA file cannot be read.
    public func makeContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        configuration.certificateVerification = .fullVerification
        configuration.trustRoots = .default
        if let extraCAFile {
            configuration.additionalTrustRoots = [.file(extraCAFile)]
        }
        return try NIOSSLContext(configuration: configuration)
    }

    /// The SNI name and the name the certificate is checked against. NIOSSL refuses an
    /// IP address as SNI, so an IP host gets nil and its certificate's IP SAN is checked.
    public static func serverHostname(for host: String) -> String? {
        isIPAddress(host) ? nil : host
    }

    public static func isIPAddress(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return (try? SocketAddress(ipAddress: bare, port: 0)) != nil
    }
}
