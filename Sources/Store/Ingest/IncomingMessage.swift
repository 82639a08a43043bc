import Foundation
import MailCore

/// IMAP-style flags of a message in one folder.
public struct MessageFlags: Sendable, Equatable {
    public var seen = false
    public var flagged = false
    public var answered = false
    public var draft = false
    /// \Deleted or a Maildir "T" (trashed) flag.
    public var deleted = false

    public init(seen: Bool = false, flagged: Bool = false, answered: Bool = false,
                draft: Bool = false, deleted: Bool = false) {
        self.seen = seen
        self.flagged = flagged
        self.answered = answered
        self.draft = draft
        self.deleted = deleted
    }
}

/// What sync fetched of a message too large to store whole (docs/REQUIREMENTS.md §C4):
/// its header, its text bodies, and attachment metadata from BODYSTRUCTURE. The raw bytes
/// are downloaded when the file is first read.
public struct PartialContent: Sendable {
    public var header: [UInt8]
    public var bodyPlain: String?
    public var bodyHTML: String?
    public var attachments: [AttachmentInfo]
    /// RFC822.SIZE: the exact size of the whole message.
    public var size: Int

    public init(header: [UInt8], bodyPlain: String?, bodyHTML: String?,
                attachments: [AttachmentInfo], size: Int) {
        self.header = header
        self.bodyPlain = bodyPlain
        self.bodyHTML = bodyHTML
        self.attachments = attachments
        self.size = size
    }
}

/// A message arriving in a folder of the store, from IMAP or from an import.
public struct IncomingMessage: Sendable {
    public enum Content: Sendable {
        /// The whole message: stored, and parsed for everything else.
        case raw([UInt8])
        case partial(PartialContent)
    }

    public var content: Content
    public var folderId: Int64
    /// IMAP UID in the folder; imports use a per-folder counter.
    public var uid: Int64
    public var flags: MessageFlags
    /// INTERNALDATE, or the file's mtime for imports.
    public var arrival: Date
    /// What the server reported (RFC822.SIZE, BODY[HEADER]); nil for local bytes, whose
    /// fingerprint is computed from them. Servers may report a size other than the byte
    /// count they send, so a synced message keeps the server's word.
    public var fingerprint: MessageFingerprint?
    /// RFC822.SIZE of whole bytes a server sent without their header first (`fingerprint`
    /// nil): the fingerprint is then that size and the header section of the bytes.
    public var reportedSize: Int?

    public init(raw: [UInt8], folderId: Int64, uid: Int64, flags: MessageFlags, arrival: Date,
                fingerprint: MessageFingerprint? = nil, reportedSize: Int? = nil) {
        self.init(content: .raw(raw), folderId: folderId, uid: uid, flags: flags, arrival: arrival,
                  fingerprint: fingerprint, reportedSize: reportedSize)
    }

    public init(content: Content, folderId: Int64, uid: Int64, flags: MessageFlags, arrival: Date,
                fingerprint: MessageFingerprint? = nil, reportedSize: Int? = nil) {
        self.content = content
        self.folderId = folderId
        self.uid = uid
        self.flags = flags
        self.arrival = arrival
        self.fingerprint = fingerprint
        self.reportedSize = reportedSize
    }
}

/// What an ingest did; re-running the same ingest yields only `alreadyPresent`.
public struct IngestSummary: Sendable, Equatable {
    /// New messages stored.
    public var added = 0
    /// Known messages (the same message, `SameMessage`) that gained a folder association.
    public var linked = 0
    /// Messages already in that folder: nothing written.
    public var alreadyPresent = 0

    public init() {}

    public static func += (lhs: inout IngestSummary, rhs: IngestSummary) {
        lhs.added += rhs.added
        lhs.linked += rhs.linked
        lhs.alreadyPresent += rhs.alreadyPresent
    }
}
