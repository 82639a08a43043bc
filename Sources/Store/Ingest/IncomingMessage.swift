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

/// A message arriving in a folder of the store, from IMAP or from an import.
public struct IncomingMessage: Sendable {
    public var raw: [UInt8]
    public var folderId: Int64
    /// IMAP UID in the folder; imports use a per-folder counter.
    public var uid: Int64
    public var flags: MessageFlags
    /// INTERNALDATE, or the file's mtime for imports.
    public var arrival: Date

    public init(raw: [UInt8], folderId: Int64, uid: Int64, flags: MessageFlags, arrival: Date) {
        self.raw = raw
        self.folderId = folderId
        self.uid = uid
        self.flags = flags
        self.arrival = arrival
    }
}

/// What an ingest did; re-running the same ingest yields only `alreadyPresent`.
public struct IngestSummary: Sendable, Equatable {
    /// New messages stored.
    public var added = 0
    /// Known messages (same dedup key) that gained a folder association.
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
