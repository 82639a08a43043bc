/// A message from `outbox/` made ready for SMTP: the bytes to transmit and
/// the envelope. Bcc is gone from `data`; its addresses are in `recipients`.
public struct PreparedOutgoing: Sendable, Equatable {
    /// The message as transmitted: CRLF line ends, no line over 998 bytes,
    /// header fields RFC 2047-encoded except non-ASCII addresses. Not dot-stuffed.
    public var data: [UInt8]
    /// MAIL FROM: always the account's address (servers check it against the
    /// login; bounces come back to the account even when From is an alias).
    public var envelopeFrom: String
    /// RCPT TO: the addresses of To, Cc and Bcc in that order, each once (compared without case).
    public var recipients: [String]
    /// The Message-ID, without angle brackets: the user's own when given, else the one we added.
    public var messageId: String
    /// The decoded Subject, for `.status` and logs; "" when there is none.
    public var subject: String
    /// True when the body holds 8-bit bytes: send with BODY=8BITMIME.
    public var needs8BitMIME: Bool
    /// True when an address holds non-ASCII (RFC 6531): send with SMTPUTF8.
    public var needsSMTPUTF8: Bool

    public init(data: [UInt8], envelopeFrom: String, recipients: [String], messageId: String, subject: String,
                needs8BitMIME: Bool, needsSMTPUTF8: Bool) {
        self.data = data
        self.envelopeFrom = envelopeFrom
        self.recipients = recipients
        self.messageId = messageId
        self.subject = subject
        self.needs8BitMIME = needs8BitMIME
        self.needsSMTPUTF8 = needsSMTPUTF8
    }
}
