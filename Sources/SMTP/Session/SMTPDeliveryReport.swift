/// What the server said about one submission that ran to its end: each recipient's
/// answer, and the answer to each copy of the message sent.
///
/// A recipient refused while another was accepted does not fail the submission: the
/// message goes to the accepted ones and the refusal is reported here. A server that takes
/// fewer recipients per transaction than the message has gets the message once per
/// transaction (`RecipientBatches`), so `dataReplies` may hold several replies. When every
/// recipient is refused no message is sent and `dataReplies` is empty.
public struct SMTPDeliveryReport: Sendable, Equatable {
    /// One per envelope recipient, in submission order: the last answer its RCPT got.
    public var recipients: [SMTPRecipientResult]
    /// The reply to the end of each copy of the message (`250 2.0.0 Ok: queued as 4Bq…`),
    /// one per transaction that carried it.
    public var dataReplies: [SMTPReply]
    /// What the server offered after its last EHLO (its SIZE limit, for one).
    public var capabilities: SMTPCapabilities

    public init(recipients: [SMTPRecipientResult], dataReplies: [SMTPReply], capabilities: SMTPCapabilities) {
        self.recipients = recipients
        self.dataReplies = dataReplies
        self.capabilities = capabilities
    }

    /// Whether the server took responsibility for the message for at least one recipient.
    public var isDelivered: Bool { !dataReplies.isEmpty }

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

    /// Accepted, and in a report: the message went to it.
    public var isAccepted: Bool { reply.kind == .positiveCompletion }
    /// A 4xx refusal (`452 too many recipients`, `450 mailbox busy`): worth another try.
    public var isTransientRejection: Bool { reply.kind == .transientNegative || isOverTransactionLimit }

    /// The transaction already holds as many recipients as the server takes: `452` with
    /// `4.5.3` or no enhanced code, or the `552 5.5.3` that RFC 821 had and RFC 5321
    /// §4.5.3.1.10 says to read as `452`. A further transaction may take this recipient.
    var isOverTransactionLimit: Bool {
        let saysTooManyRecipients = reply.enhancedCode.map { $0.subject == 5 && $0.detail == 3 }
        switch reply.code {
        case 452: return saysTooManyRecipients ?? true
        case 552: return saysTooManyRecipients ?? false
        default: return false
        }
    }

    public var description: String { "\(address): \(reply)" }
}
