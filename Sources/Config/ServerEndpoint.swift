/// How a connection is secured. There is deliberately no plaintext option: mailfs never logs in
/// over an unencrypted connection (docs/REQUIREMENTS.md §C6).
public enum ConnectionSecurity: String, Sendable, Equatable, CaseIterable {
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    case tls
    /// Plain connection upgraded with STARTTLS; a server that does not offer it is an error.
    case starttls

    /// The port used when `[accounts.NAME.imap]` has no `port`.
    public var defaultIMAPPort: Int {
        switch self {
        case .tls: 993
        case .starttls: 143
        }
    }

    /// The port used when `[accounts.NAME.smtp]` has no `port`.
    public var defaultSMTPPort: Int {
        switch self {
        case .tls: 465
        case .starttls: 587
        }
    }
}

/// One server of an account: `[accounts.NAME.imap]` or `[accounts.NAME.smtp]`.
public struct ServerEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var security: ConnectionSecurity

    public init(host: String, port: Int, security: ConnectionSecurity) {
        self.host = host
        self.port = port
        self.security = security
    }

    /// The `.status` form (docs/REQUIREMENTS.md §C5): `imap.example.com:993 tls`; an IPv6
    /// host is bracketed.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(shownHost):\(port) \(security.rawValue)"
    }
}
