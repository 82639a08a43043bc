/// How the submission connection is protected. As for IMAP there is no plaintext
/// option: credentials never cross the network unencrypted.
public enum SMTPSecurity: String, Sendable, Equatable {
    /// Implicit TLS from the first byte (port 465).
    case tls
    /// Plaintext greeting, EHLO, then `STARTTLS` before AUTH (port 587). Refused when
    /// the server does not advertise it.
    case starttls
}
