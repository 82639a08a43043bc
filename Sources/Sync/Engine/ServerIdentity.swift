import IMAP
import MailCore

/// Which message a UID holds, from `RFC822.SIZE` and `BODY.PEEK[HEADER]`: its Message-ID
/// and fingerprint (docs/SYNC-RULES.md, "The same message"). The sync links a new UID to a
/// stored copy of the same message by it; the journal applier tells its own message from
/// others sharing the Message-ID by it.
struct ServerIdentity: Sendable {
    static let fetchItems: [FetchItem] = [.rfc822Size, .bodyPeek("HEADER")]

    var uid: UInt32
    /// The header section as the server sent it, blank line included.
    var header: [UInt8]
    var fingerprint: MessageFingerprint
    var messageID: String?

    /// nil without a UID. A server that leaves out the size or the header still gets its
    /// message stored; without a header it has no Message-ID, so it is never linked.
    init?(_ attributes: FetchAttributes) {
        guard let uid = attributes.uid else { return nil }
        self.uid = uid
        header = attributes.body(BodySection("HEADER")) ?? []
        fingerprint = MessageFingerprint(size: Int(clamping: attributes.rfc822Size ?? 0), header: header)
        messageID = MessageParser.messageID(ofHeader: header)
    }
}
