/// What the server said about one submission that ran to its end: each recipient's
/// answer, and the answer to the message itself when at least one recipient was accepted.
///
/// A recipient refused while another was accepted does not fail the submission: the
/// message goes to the accepted ones and the refusal is reported here. When every
/// recipient is refused no message is sent and `dataReply` is nil.
public struct SMTPDeliveryReport: Sendable, Equatable {
    /// One per envelope recipient, in submission order.
    public var recipients: [SMTPRecipientResult]
    /// The reply to the end of the message (`250 2.0.0 Ok: queued as 4Bq…`), nil when the
    /// message was not sent because no recipient was accepted.
    public var dataReply: SMTPReply?
    /// What the server offered after its last EHLO (its SIZE limit, for one).
    public var capabilities: SMTPCapabilities

    public init(recipients: [SMTPRecipientResult], dataReply: SMTPReply?, capabilities: SMTPCapabilities) {
        self.recipients = recipients
        self.dataReply = dataReply
        self.capabilities = capabilities
    }

    /// Whether the server took responsibility for the message for at least one recipient.
    public var isDelivered: Bool { dataReply != nil }

    public var acceptedRecipients: [String] { recipients.filter(\.isAccepted).map(\.address) }
    public var rejectedRecipients: [SMTPRecipientResult] { recipients.filter { !$0.isAccepted } }
}

/// The server's answer to `RCPT TO` for one address.
public struct SMTPRecipientResult: Sendable, Equatable, CustomStringConvertible {
    public var address: String
    public var reply: SMTPReply

    public init(address: String, reply: SMTPReply) {
        self.address = address
        self.reply = reply
    }

    public var isAccepted: Bool { reply.kind == .positiveCompletion }
    /// A 4xx refusal (`452 too many recipients`, `450 mailbox busy`): worth another try.
    public var isTransientRejection: Bool { reply.kind == .transientNegative }

    public var description: String { "\(address): \(reply)" }
}
