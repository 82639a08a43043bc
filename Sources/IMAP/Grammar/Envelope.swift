/// The ENVELOPE of a message (RFC 3501 §7.4.2), as the server computed it.
///
/// Text fields are raw header values: they may hold RFC 2047 encoded words (decoding
/// is the caller's, e.g. `MailCore.EncodedWord`) or raw 8-bit bytes, decoded as UTF-8
/// with replacement. NIL, `""` and `()` all read as "absent" for address lists.
public struct Envelope: Sendable, Equatable {
    public var date: String?
    public var subject: String?
    public var from: [IMAPAddress]
    public var sender: [IMAPAddress]
    public var replyTo: [IMAPAddress]
    public var to: [IMAPAddress]
    public var cc: [IMAPAddress]
    public var bcc: [IMAPAddress]
    public var inReplyTo: String?
    public var messageID: String?

    public init(
        date: String? = nil, subject: String? = nil, from: [IMAPAddress] = [],
        sender: [IMAPAddress] = [], replyTo: [IMAPAddress] = [], to: [IMAPAddress] = [],
        cc: [IMAPAddress] = [], bcc: [IMAPAddress] = [], inReplyTo: String? = nil,
        messageID: String? = nil
    ) {
        self.date = date
        self.subject = subject
        self.from = from
        self.sender = sender
        self.replyTo = replyTo
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.inReplyTo = inReplyTo
        self.messageID = messageID
    }
}

/// One address of an envelope: `("Real Name" NIL "user" "example.org")`.
///
/// Group syntax (RFC 3501 §7.4.2) is kept as sent: a group starts with an entry whose
/// host is nil and mailbox is the group name, and ends with an all-nil entry.
public struct IMAPAddress: Sendable, Equatable {
    public var name: String?
    /// The obsolete source route (`@route`), almost always nil.
    public var adl: String?
    public var mailbox: String?
    public var host: String?

    public init(name: String? = nil, adl: String? = nil, mailbox: String? = nil, host: String? = nil) {
        self.name = name
        self.adl = adl
        self.mailbox = mailbox
        self.host = host
    }

    /// `mailbox@host`, or nil for group markers.
    public var address: String? {
        guard let mailbox, let host else { return nil }
        return "\(mailbox)@\(host)"
    }

    /// Whether this entry opens a group (`group:`): a mailbox without a host.
    public var isGroupStart: Bool { host == nil && mailbox != nil }

    /// Whether this entry closes a group (`;`): every field nil.
    public var isGroupEnd: Bool { host == nil && mailbox == nil && name == nil && adl == nil }
}
