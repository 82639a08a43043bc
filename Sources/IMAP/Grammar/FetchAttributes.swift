import Foundation

/// The data items of one `* n FETCH (…)` response. Items the server did not send are nil.
///
/// An item that cannot be parsed (typically a broken BODYSTRUCTURE) is left nil and
/// named in `malformed`; the other items of the same FETCH survive, above all the UID.
public struct FetchAttributes: Sendable, Equatable {
    public var uid: UInt32?
    /// Flags as sent (`\Seen`, `$Forwarded`, Gmail keywords with `[ ]`).
    public var flags: [String]?
    public var internalDate: Date?
    public var rfc822Size: UInt64?
    public var envelope: Envelope?
    public var bodyStructure: BodyStructure?
    /// CONDSTORE `MODSEQ (n)`.
    public var modSeq: UInt64?
    /// `BODY[section]<origin>` and `RFC822…` contents; NIL is stored as empty bytes.
    public var bodySections: [BodySection: [UInt8]]
    /// Gmail `X-GM-MSGID`: stable across folders.
    public var gmailMessageID: UInt64?
    /// Gmail `X-GM-THRID`.
    public var gmailThreadID: UInt64?
    /// Gmail `X-GM-LABELS`, as sent (`\Inbox`, `\Important`, `+IMNews`), not decoded.
    public var gmailLabels: [String]?
    /// Names of the items that were present but could not be parsed (`BODYSTRUCTURE`).
    public var malformed: [String]

    public init(
        uid: UInt32? = nil, flags: [String]? = nil, internalDate: Date? = nil,
        rfc822Size: UInt64? = nil, envelope: Envelope? = nil,
        bodyStructure: BodyStructure? = nil, modSeq: UInt64? = nil,
        bodySections: [BodySection: [UInt8]] = [:], gmailMessageID: UInt64? = nil,
        gmailThreadID: UInt64? = nil, gmailLabels: [String]? = nil, malformed: [String] = []
    ) {
        self.uid = uid
        self.flags = flags
        self.internalDate = internalDate
        self.rfc822Size = rfc822Size
        self.envelope = envelope
        self.bodyStructure = bodyStructure
        self.modSeq = modSeq
        self.bodySections = bodySections
        self.gmailMessageID = gmailMessageID
        self.gmailThreadID = gmailThreadID
        self.gmailLabels = gmailLabels
        self.malformed = malformed
    }

    /// The bytes of `BODY[section]` as fetched, e.g. `body("HEADER.FIELDS (FROM TO)")`.
    public func body(_ section: BodySection) -> [UInt8]? {
        bodySections[section]
    }
}
