/// The bracketed code of a status response: `* OK [UIDNEXT 4392] Predicted next UID`.
///
/// Codes the grammar does not know stay opaque in `.other` (e.g. Office 365's
/// `[Error="Internal error" AuthResultFromPopImapEnd=0 …]`), never an error.
public enum ResponseCode: Sendable, Equatable {
    /// The text must be shown to the user (`.status` / `.log`).
    case alert
    case parse
    case readOnly
    case readWrite
    case tryCreate
    case uidValidity(UInt32)
    case uidNext(UInt32)
    case unseen(UInt32)
    case highestModSeq(UInt64)
    case noModSeq
    /// `[PERMANENTFLAGS (\Deleted \Seen \*)]`: flags as sent.
    case permanentFlags([String])
    /// `[CAPABILITY IMAP4rev1 …]`, upper-cased.
    case capability([String])
    /// UIDPLUS (RFC 4315): the UID the appended message got (the first one for MULTIAPPEND).
    case appendUID(uidValidity: UInt32, uid: UInt32)
    /// UIDPLUS: `[COPYUID 38505 304,319:320 3956:3958]`, also sent for MOVE.
    case copyUID(uidValidity: UInt32, source: UIDSet, destination: UIDSet)
    /// QRESYNC: the previously selected mailbox is now closed.
    case closed
    /// Any other code: its name upper-cased and the raw text after the name, if any.
    case other(name: String, text: String?)
}
