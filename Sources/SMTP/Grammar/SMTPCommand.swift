/// One command line as sent, and how the log shows it: AUTH arguments and SASL
/// responses are `<redacted>`, since they are passwords and tokens in base64.
struct SMTPCommand: Sendable, Equatable {
    var bytes: [UInt8]
    var logLine: String

    private init(_ line: String, log: String? = nil) {
        bytes = Array("\(line)\r\n".utf8)
        logLine = log ?? line
    }

    /// ehlo = "EHLO" SP ( Domain / address-literal ) CRLF
    static func ehlo(_ clientName: String) -> SMTPCommand { SMTPCommand("EHLO \(clientName)") }

    static let startTLS = SMTPCommand("STARTTLS")
    static let data = SMTPCommand("DATA")
    static let rset = SMTPCommand("RSET")
    static let quit = SMTPCommand("QUIT")

    /// `AUTH mechanism [initial-response]` (RFC 4954 §4).
    static func auth(_ mechanism: SASLMechanism, initialResponse: String?) -> SMTPCommand {
        guard let initialResponse else { return SMTPCommand("AUTH \(mechanism.rawValue)") }
        return SMTPCommand("AUTH \(mechanism.rawValue) \(initialResponse)", log: "AUTH \(mechanism.rawValue) <redacted>")
    }

    /// A response to a `334` challenge: always secret (a user name, a password, or the
    /// empty line that answers a failure challenge).
    static func saslResponse(_ text: String) -> SMTPCommand { SMTPCommand(text, log: "<redacted>") }

    /// mail = "MAIL FROM:" Reverse-path [SP Mail-parameters] CRLF, with the parameters of
    /// SIZE (RFC 1870), 8BITMIME (RFC 6152) and SMTPUTF8 (RFC 6531).
    static func mailFrom(_ address: String, size: Int?, eightBitMIME: Bool, smtpUTF8: Bool) -> SMTPCommand {
        var line = "MAIL FROM:<\(address)>"
        if let size { line += " SIZE=\(size)" }
        if eightBitMIME { line += " BODY=8BITMIME" }
        if smtpUTF8 { line += " SMTPUTF8" }
        return SMTPCommand(line)
    }

    /// rcpt = "RCPT TO:" Forward-path CRLF
    static func rcptTo(_ address: String) -> SMTPCommand { SMTPCommand("RCPT TO:<\(address)>") }
}
