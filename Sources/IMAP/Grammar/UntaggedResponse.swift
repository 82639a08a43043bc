/// An untagged (`* …`) response.
///
/// Anything the grammar does not know becomes `.other` rather than an error, so new
/// server extensions never break a session.
public enum UntaggedResponse: Sendable, Equatable {
    /// `* OK …`, `* NO …`, `* BAD …` (e.g. `* OK [UIDVALIDITY 3857529045] UIDs valid`).
    case state(ResponseState)
    /// `* PREAUTH …` greeting: already authenticated. Its status is always `.ok`.
    case preauth(ResponseState)
    /// `* BYE …`: the server is closing; it may arrive at any time. Its status is `.ok`.
    case bye(ResponseState)
    /// `* CAPABILITY …`, capabilities upper-cased (`IMAP4REV1`, `AUTH=PLAIN`).
    case capability([String])
    /// `* LIST …`; a Gmail `* XLIST …` is reported as a LIST as well.
    case list(MailboxListEntry)
    case lsub(MailboxListEntry)
    case exists(Int)
    case recent(Int)
    /// `* n EXPUNGE`: the message sequence number that went away.
    case expunge(Int)
    /// `* FLAGS (…)`: the flags defined in the mailbox.
    case flags([String])
    /// `* SEARCH 2 3 6 (MODSEQ 917162500)`; `modSeq` from CONDSTORE (RFC 7162).
    case search([UInt32], modSeq: UInt64?)
    /// `* ESEARCH (TAG "A1") UID MIN 2 MAX 9 COUNT 4 ALL 2:4,9` (RFC 4731).
    case esearch(ESearchResult)
    /// `* n FETCH (…)`: `sequence` is the message sequence number.
    case fetch(sequence: Int, attributes: FetchAttributes)
    /// `* STATUS mailbox (MESSAGES 3 UIDNEXT 9)`: item names upper-cased; the mailbox
    /// name is raw (modified UTF-7, not decoded).
    case status(mailbox: String, [String: UInt64])
    /// `* VANISHED (EARLIER) 41,43:116` (QRESYNC, RFC 7162).
    case vanished(earlier: Bool, uids: UIDSet)
    /// `* ENABLED CONDSTORE`, upper-cased.
    case enabled([String])
    /// `* NAMESPACE (("INBOX." ".")) NIL NIL` (RFC 2342).
    case namespace(NamespaceResponse)
    /// Any other untagged response: the keyword upper-cased and the rest of the line
    /// raw (literals embedded as received), e.g. `ID`, `QUOTA`.
    case other(keyword: String, text: String)
}

/// The result of an extended SEARCH (RFC 4731). Absent items are nil.
public struct ESearchResult: Sendable, Equatable {
    /// The correlator of `(TAG "…")`, if present.
    public var tag: String?
    /// Whether the numbers are UIDs (`UID` was given) or sequence numbers.
    public var uid: Bool
    public var min: UInt32?
    public var max: UInt32?
    public var count: Int?
    public var all: UIDSet?
    public var modSeq: UInt64?

    public init(
        tag: String? = nil, uid: Bool = false, min: UInt32? = nil, max: UInt32? = nil,
        count: Int? = nil, all: UIDSet? = nil, modSeq: UInt64? = nil
    ) {
        self.tag = tag
        self.uid = uid
        self.min = min
        self.max = max
        self.count = count
        self.all = all
        self.modSeq = modSeq
    }
}
