/// How the connection is protected. There is deliberately no plaintext option: a
/// password never crosses the network unencrypted.
public enum IMAPSecurity: String, Sendable, Equatable {
    /// Implicit TLS from the first byte (port 993).
    case tls
    /// Plaintext greeting, then `STARTTLS` before anything else (port 143). Refused with
    /// `IMAPError.startTLSNotOffered` when the server does not advertise it.
    case starttls
}
