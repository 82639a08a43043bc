import Transport

/// Why a submission failed. Descriptions quote the server, never a command's arguments,
/// so a password or token cannot reach a log or `.status`.
///
/// `isTransient` tells a send queue whether trying the same message later can help.
public enum SMTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The TCP connection could not be made (name resolution, refused, unreachable).
    case connectFailed(String)
    /// The connection ended before the submission was done (reset, EOF, cancelled).
    case connectionClosed
    /// No byte arrived within the time allowed (`SMTPTimeouts`).
    case timedOut(Duration)
    /// The TLS handshake or layer failed: untrusted or self-signed certificate, wrong
    /// host name, a protocol version below 1.2, an unreadable CA file.
    case tls(TLSFailure)
    /// STARTTLS is configured but the server does not offer it: nothing was sent that
    /// needs protection (no AUTH, no message).
    case startTLSNotOffered
    /// AUTH was refused with a 5xx (535 wrong password, 534 an app password is needed).
    /// `detail` is the decoded SASL challenge the server sent, when any (XOAUTH2's
    /// `{"status":"401",…}`).
    case authenticationFailed(SMTPReply, detail: String?)
    /// The server offers no AUTH mechanism usable with this credential (PLAIN or LOGIN for
    /// a password, XOAUTH2 for a token); `offered` lists what it does offer.
    case noUsableAuthMechanism(offered: [String])
    /// A 5xx that is not about authentication: the server will never take this message
    /// as it is (the greeting, MAIL FROM, DATA or the message itself).
    case rejected(SMTPCommandFailure)
    /// A 4xx: the server cannot take it now (greylisting, a full queue, 421 shutting down).
    case transientFailure(SMTPCommandFailure)
    /// The message is larger than the server's advertised SIZE; found before MAIL FROM.
    case messageTooLarge(size: Int, limit: Int)
    /// The message needs an extension the server does not offer (SMTPUTF8 for a
    /// non-ASCII envelope address).
    case extensionMissing(String)
    /// The submission cannot be sent as given (no recipient, an address with a line break).
    case invalidSubmission(String)
    /// The server broke the protocol (garbage, an over-long line, an impossible reply).
    case protocolViolation(String)

    /// Whether the same submission may succeed later without anyone changing anything.
    public var isTransient: Bool {
        switch self {
        case .connectFailed, .connectionClosed, .timedOut, .transientFailure: true
        case .tls(let failure): !failure.isPermanent
        case .startTLSNotOffered, .authenticationFailed, .noUsableAuthMechanism, .rejected,
             .messageTooLarge, .extensionMissing, .invalidSubmission, .protocolViolation: false
        }
    }

    public var description: String {
        switch self {
        case .connectFailed(let reason): "cannot connect to the SMTP server: \(reason)"
        case .connectionClosed: "the SMTP connection closed unexpectedly"
        case .timedOut(let limit): "no response from the SMTP server within \(limit)"
        case .tls(let failure): "\(failure)"
        case .startTLSNotOffered: "STARTTLS is configured but the SMTP server does not offer it"
        case .authenticationFailed(let reply, let detail):
            "SMTP authentication failed: \(reply)" + (detail.map { " (\($0))" } ?? "")
        case .noUsableAuthMechanism(let offered):
            "the SMTP server offers no usable authentication mechanism (offered: "
                + (offered.isEmpty ? "none" : offered.joined(separator: " ")) + ")"
        case .rejected(let failure): "\(failure)"
        case .transientFailure(let failure): "\(failure) (temporary)"
        case .messageTooLarge(let size, let limit):
            "message of \(size) bytes is over the SMTP server's limit of \(limit) bytes"
        case .extensionMissing(let name): "the SMTP server does not support \(name), which this message needs"
        case .invalidSubmission(let reason): "cannot submit: \(reason)"
        case .protocolViolation(let reason): "SMTP protocol violation: \(reason)"
        }
    }
}

/// A negative reply and the step it answered (its name only, never its arguments).
public struct SMTPCommandFailure: Sendable, Equatable, CustomStringConvertible {
    /// `greeting`, `EHLO`, `STARTTLS`, `AUTH`, `MAIL FROM`, `RCPT TO` (only for 421, the
    /// server closing: other RCPT refusals are per recipient), `DATA` or `end of data`.
    public var command: String
    public var reply: SMTPReply

    public init(command: String, reply: SMTPReply) {
        self.command = command
        self.reply = reply
    }

    public var description: String { "SMTP server refused \(command): \(reply)" }
}
