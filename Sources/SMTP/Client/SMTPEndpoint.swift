import Transport

/// Where to submit: the server, how the connection is protected, and whose certificates
/// to trust.
public struct SMTPEndpoint: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var security: SMTPSecurity
    public var tls: TLSOptions

    public init(host: String, port: Int, security: SMTPSecurity, tls: TLSOptions = TLSOptions()) {
        self.host = host
        self.port = port
        self.security = security
        self.tls = tls
    }
}

/// Who authenticates. A password is sent with AUTH PLAIN (or LOGIN when the server has no
/// PLAIN); a token with AUTH XOAUTH2 only. Printing one never shows the secret.
public enum SMTPCredential: Sendable, Equatable, CustomStringConvertible {
    case password(user: String, password: String)
    case xoauth2(user: String, token: String)

    public var user: String {
        switch self {
        case .password(let user, _), .xoauth2(let user, _): user
        }
    }

    /// The password or the token.
    var secret: String {
        switch self {
        case .password(_, let secret), .xoauth2(_, let secret): secret
        }
    }

    public var description: String {
        switch self {
        case .password(let user, _): "password for \(user)"
        case .xoauth2(let user, _): "OAuth token for \(user)"
        }
    }
}

/// How long the client waits before it gives up on a silent server, so a server that
/// vanishes never hangs the caller. Any byte received, or any chunk of the message
/// written, restarts the wait.
public struct SMTPTimeouts: Sendable, Equatable {
    /// TCP connect, then the TLS handshake and the greeting.
    public var connect: Duration
    /// The reply to each command.
    public var command: Duration
    /// The reply to the end of the message, which servers give after filtering it
    /// (RFC 5321 §4.5.3.2.6 suggests 10 minutes).
    public var dataCompletion: Duration

    public init(connect: Duration = .seconds(30), command: Duration = .seconds(120),
                dataCompletion: Duration = .seconds(300)) {
        self.connect = connect
        self.command = command
        self.dataCompletion = dataCompletion
    }
}
