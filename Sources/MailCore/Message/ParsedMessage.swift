import Foundation

/// An address from a From/To/Cc/Bcc/Reply-To header, decoded to UTF-8.
public struct EmailAddress: Sendable, Hashable, Codable {
    /// Display name, RFC 2047-decoded; nil when absent.
    public var name: String?
    /// `local@domain` as written (no angle brackets); may be malformed in broken mail.
    public var address: String

    public init(name: String?, address: String) {
        self.name = name
        self.address = address
    }
}

/// One header field as it appears in the message, unfolded but not decoded.
public struct HeaderField: Sendable, Hashable {
    public var name: String
    /// The raw value (after the colon), unfolded, leading whitespace trimmed.
    public var rawValue: String

    public init(name: String, rawValue: String) {
        self.name = name
        self.rawValue = rawValue
    }
}

/// Metadata of one attachment (or inline non-text part) of a message.
public struct AttachmentInfo: Sendable, Hashable {
    /// IMAP section number of the part ("2", "1.3"): what BODY.PEEK[<part>] takes.
    public var partID: String
    /// Decoded file name from Content-Disposition filename / Content-Type name
    /// (RFC 2231 and RFC 2047 decoded), not yet sanitized; nil when the part has none.
    public var filename: String?
    /// Lower-case `type/subtype`.
    public var mimeType: String
    /// Lower-case Content-Transfer-Encoding ("base64", "quoted-printable", "7bit", ...).
    public var encoding: String
    /// Size of the decoded content in bytes when known (from parsing), else the encoded size.
    public var size: Int
    /// True when Content-Disposition is `inline`.
    public var isInline: Bool
    public var contentID: String?

    public init(partID: String, filename: String?, mimeType: String, encoding: String,
                size: Int, isInline: Bool, contentID: String?) {
        self.partID = partID
        self.filename = filename
        self.mimeType = mimeType
        self.encoding = encoding
        self.size = size
        self.isInline = isInline
        self.contentID = contentID
    }
}

/// The result of parsing an RFC 5322 message: everything the store keeps.
/// Parsing never fails: broken input yields a best-effort value.
public struct ParsedMessage: Sendable {
    public var headers: [HeaderField] = []
    /// Message-ID without angle brackets; nil when absent or empty.
    public var messageID: String?
    /// Message-IDs of In-Reply-To, without angle brackets, in order.
    public var inReplyTo: [String] = []
    /// Message-IDs of References, without angle brackets, in order.
    public var references: [String] = []
    public var from: [EmailAddress] = []
    public var to: [EmailAddress] = []
    public var cc: [EmailAddress] = []
    public var bcc: [EmailAddress] = []
    public var replyTo: [EmailAddress] = []
    /// RFC 2047-decoded subject, unfolded; "" when absent.
    public var subject: String = ""
    /// The Date header; nil when absent or unparseable.
    public var date: Date?
    /// The first text/plain body (charset-decoded to UTF-8), nil if none.
    public var bodyPlain: String?
    /// The first text/html body (charset-decoded to UTF-8), nil if none.
    public var bodyHTML: String?
    /// True when a body was cut at `MessageParser.maxBodyBytes`.
    public var bodyTruncated: Bool = false
    public var attachments: [AttachmentInfo] = []
    /// The lower-case `type/subtype` of every MIME part, multiparts included, in tree order
    /// (an encapsulated message counts as one part): what `mimetype:` searches.
    public var partTypes: [String] = []

    public init() {}

    /// The first header with this name (case-insensitive), raw.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.hasName(lowercased: wanted) }?.rawValue
    }
}
