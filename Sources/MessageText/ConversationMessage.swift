import MailCore

/// One message as the renderers take it: plain values, so rendering does no I/O and the
/// tree decides where the bytes come from.
public struct ConversationMessage: Sendable {
    public var heading: MessageHeading
    public var body: MessageBody
    /// The message's file name in the tree (`2026-11-02 1432 Alice - Budget.eml`), shown so
    /// a reader can act on it; nil when there is none (a message read from stdin).
    public var fileName: String?
    public var isUnread: Bool
    public var attachments: [AttachmentEntry]

    public init(heading: MessageHeading, body: MessageBody, fileName: String?, isUnread: Bool = false,
                attachments: [AttachmentEntry] = []) {
        self.heading = heading
        self.body = body
        self.fileName = fileName
        self.isUnread = isUnread
        self.attachments = attachments
    }

    /// A whole message's bytes, its heading and attachments read from them.
    public init(raw: [UInt8], fileName: String?, isUnread: Bool = false) {
        let parsed = MessageParser.parse(raw)
        self.init(heading: MessageHeading(parsed: parsed), body: .raw(raw), fileName: fileName,
                  isUnread: isUnread, attachments: AttachmentEntry.listed(in: parsed))
    }
}
