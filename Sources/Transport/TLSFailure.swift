import NIOSSL

/// Why TLS could not be used, sorted by what the user can do about it, in words they
/// can act on rather than BoringSSL's error stack ("CERTIFICATE_VERIFY_FAILED at
/// …/handshake.cc"). The IMAP and SMTP clients both classify through here.
public enum TLSFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The certificate chain does not lead to a trusted CA, has expired, or names
    /// another host: BoringSSL reports all of these as one verification failure.
    case untrustedCertificate
    /// No TLS 1.2 or later, or no cipher both sides accept.
    case unsupportedProtocol
    /// The local TLS setup could not be built (an unreadable or malformed `ca_file`).
    case setup(String)
    /// The handshake or the session broke off for another reason (a cut connection):
    /// the network's doing, worth another try.
    case interrupted(String)

    /// Sorts an error NIOSSL raised during the handshake or the session.
    public init(_ error: any Error) {
        let text = "\(error)"
        let lower = text.lowercased()
        if Self.certificateMarkers.contains(where: lower.contains) {
            self = .untrustedCertificate
        } else if Self.protocolMarkers.contains(where: lower.contains) {
            self = .unsupportedProtocol
        } else if lower.contains("cannotuseipaddressinsni") || lower.contains("invalidsnihostname") {
            self = .setup(text)
        } else {
            self = .interrupted(text)
        }
    }

    /// Only an interrupted session can succeed on another try; the others stay as they
    /// are until the user or the server's administrator changes something.
    public var isPermanent: Bool {
        if case .interrupted = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .untrustedCertificate:
            "the server's certificate is not trusted (signed by an unknown CA, expired, or for another host name)"
        case .unsupportedProtocol: "the server offers no TLS 1.2 or later, or no cipher mailfs accepts"
        case .setup(let reason): "cannot set up TLS: \(reason)"
        case .interrupted(let reason): "TLS failed: \(reason)"
        }
    }

    private static let certificateMarkers = [
        "certificate", "failedtovalidatehostname", "serverhostnameimpossibletomatch", "unabletovalidatecertificate",
    ]
    private static let protocolMarkers = [
        "protocol_version", "unsupported_protocol", "wrong_version_number", "no_protocols_available",
        "no_shared_cipher",
    ]
}
