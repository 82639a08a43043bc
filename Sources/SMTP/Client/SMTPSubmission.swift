/// One message to submit: the envelope (RFC 5321 reverse-path and forward-paths) and the
/// RFC 5322 bytes. The envelope is what the server delivers by; the headers are not read.
public struct SMTPSubmission: Sendable, Equatable {
    /// `MAIL FROM` address, bare (`alice@example.org`, no angle brackets); empty for the
    /// null reverse-path `<>`.
    public var envelopeFrom: String
    /// `RCPT TO` addresses, bare; at least one.
    public var recipients: [String]
    /// The message; line breaks may be LF or CRLF, dot-stuffing is done when sending.
    public var data: [UInt8]

    public init(envelopeFrom: String, recipients: [String], data: [UInt8]) {
        self.envelopeFrom = envelopeFrom
        self.recipients = recipients
        self.data = data
    }

    /// RFC 5321 §4.5.3.1.3: a path is at most 256 octets, brackets included.
    static let maxAddressLength = 254

    /// Refuses what cannot be put on a command line safely: no recipient, an empty
    /// recipient, an address too long or with a control character or angle bracket (which
    /// could end the command early or smuggle another one).
    func validate() throws(SMTPError) {
        guard !recipients.isEmpty else { throw .invalidSubmission("no recipient") }
        try Self.validate(envelopeFrom, role: "sender", allowEmpty: true)
        for recipient in recipients {
            try Self.validate(recipient, role: "recipient", allowEmpty: false)
        }
    }

    private static func validate(_ address: String, role: String, allowEmpty: Bool) throws(SMTPError) {
        if address.isEmpty, !allowEmpty { throw .invalidSubmission("empty \(role) address") }
        guard address.utf8.count <= maxAddressLength else {
            throw .invalidSubmission("\(role) address longer than \(maxAddressLength) bytes")
        }
        let forbidden = address.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "<" || $0 == ">" }
        guard !forbidden else {
            throw .invalidSubmission("\(role) address contains a control character or angle bracket")
        }
    }

    /// Whether an envelope address is not ASCII: only then is SMTPUTF8 needed (non-ASCII
    /// headers with ASCII addresses travel as 8-bit data).
    var needsSMTPUTF8: Bool {
        ([envelopeFrom] + recipients).contains { address in address.utf8.contains { $0 >= 0x80 } }
    }
}
