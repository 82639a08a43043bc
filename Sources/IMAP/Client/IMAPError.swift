import Transport

/// Why an IMAP operation failed. Descriptions carry the server's text and response code,
/// never a command's arguments, so a password or token cannot leak into a log or `.status`.
public enum IMAPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered NO or BAD.
    case commandFailed(CommandFailure)
    /// LOGIN or AUTHENTICATE was answered NO or BAD. `detail` is the decoded SASL error
    /// challenge when the server sent one (XOAUTH2: `{"status":"400",…}`). Check
    /// `failure.code`: Gmail's `[ALERT] Too many simultaneous connections` or
    /// `[UNAVAILABLE]` is not a wrong password.
    case authenticationFailed(CommandFailure, detail: String?)
    /// The server sent `* BYE` (autologout, shutdown, throttling) and closes the connection.
    case serverClosed(String)
    /// The TCP connection could not be made (name resolution, refused, unreachable).
    case connectFailed(String)
    /// The connection ended without a BYE (EOF, closed locally).
    case connectionClosed
    /// The server's side reset the connection (a TCP RST: a killed server, a middlebox).
    case connectionReset
    /// No byte arrived within the time allowed (`connect` for the greeting, `response`
    /// for a command).
    case timedOut(Duration)
    /// STARTTLS was configured but the server does not offer it, or it greeted with
    /// PREAUTH over plaintext: nothing is sent in the clear.
    case startTLSNotOffered
    /// An operation needs an extension the server does not advertise.
    case capabilityMissing(Capability)
    /// The TLS handshake or the TLS layer failed (untrusted certificate, wrong host name,
    /// protocol version below 1.2).
    case tls(TLSFailure)
    /// A caller's argument cannot be sent (a flag or search text with CR/LF, …).
    case invalidArgument(String)
    /// The server broke the protocol (an unparseable stream, an unexpected greeting).
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .commandFailed(let failure): "\(failure)"
        case .authenticationFailed(let failure, let detail):
            detail.map { "\(failure) (\($0))" } ?? "\(failure)"
        case .serverClosed(let text): "server closed the connection: \(text)"
        case .connectFailed(let reason): "cannot connect: \(reason)"
        case .connectionClosed: "connection closed"
        case .connectionReset: "connection reset by the server"
        case .timedOut(let duration): "no response from the server within \(duration)"
        case .startTLSNotOffered: "STARTTLS is configured but the server does not offer it"
        case .capabilityMissing(let name): "the server does not support \(name)"
        case .tls(let failure): "\(failure)"
        case .invalidArgument(let reason): "invalid argument: \(reason)"
        case .protocolViolation(let reason): "IMAP protocol violation: \(reason)"
        }
    }
}

/// A NO or BAD reply: which command (its name only) and what the server said.
public struct CommandFailure: Sendable, Equatable, CustomStringConvertible {
    /// The command's name, e.g. `UID FETCH`; never its arguments.
    public var command: String
    public var status: Status
    public var code: ResponseCode?
    public var text: String

    public init(command: String, status: Status, code: ResponseCode? = nil, text: String) {
        self.command = command
        self.status = status
        self.code = code
        self.text = text
    }

    public var description: String {
        let codeText = code.map { " [\(ResponseCodeText.render($0))]" } ?? ""
        return "\(command) failed: \(status.rawValue)\(codeText) \(text)"
    }
}

/// A short spelling of a response code for messages.
enum ResponseCodeText {
    static func render(_ code: ResponseCode) -> String {
        switch code {
        case .alert: "ALERT"
        case .parse: "PARSE"
        case .readOnly: "READ-ONLY"
        case .readWrite: "READ-WRITE"
        case .tryCreate: "TRYCREATE"
        case .uidValidity(let value): "UIDVALIDITY \(value)"
        case .uidNext(let value): "UIDNEXT \(value)"
        case .unseen(let value): "UNSEEN \(value)"
        case .highestModSeq(let value): "HIGHESTMODSEQ \(value)"
        case .noModSeq: "NOMODSEQ"
        case .permanentFlags(let flags): "PERMANENTFLAGS (\(flags.joined(separator: " ")))"
        case .capability(let names): "CAPABILITY \(names.joined(separator: " "))"
        case .appendUID(let validity, let uid): "APPENDUID \(validity) \(uid)"
        case .copyUID(let validity, let source, let destination): "COPYUID \(validity) \(source) \(destination)"
        case .closed: "CLOSED"
        case .other(let name, let text): text.map { "\(name) \($0)" } ?? name
        }
    }
}

extension IMAPError {
    /// A failure only the user can fix (the server's certificate, STARTTLS missing, a TLS
    /// version below 1.2, a TLS setup that cannot load): retrying cannot help, and repeated
    /// attempts against a real provider only look like an attack.
    public var isPermanent: Bool {
        switch self {
        case .startTLSNotOffered:
            return true
        case .tls(let failure):
            return failure.isPermanent
        default:
            return false
        }
    }
}
