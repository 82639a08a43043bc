/// One entity of a message's MIME structure, with byte ranges into the raw
/// message so content is decoded only when asked for.
public struct MIMEPart: Sendable {
    /// IMAP section number (RFC 3501 §6.4.5 FETCH BODY[section]): "1", "2.1".
    /// A top-level multipart, and a multipart directly inside message/rfc822,
    /// share the number of what contains them ("" for the message itself).
    public var partID: String
    public var headers: [HeaderField]
    public var contentType: ContentType
    public var disposition: ContentDisposition?
    /// Lower-cased first word of Content-Transfer-Encoding; "7bit" when absent.
    public var transferEncoding: String
    /// Content-ID without angle brackets.
    public var contentID: String?
    public var headerRange: Range<Int>
    /// The encoded body, without the line break that precedes a boundary.
    public var bodyRange: Range<Int>
    /// Children of a multipart, or the single encapsulated message of a
    /// message/rfc822 part.
    public var children: [MIMEPart]

    /// This part or the first descendant with the given section number.
    public func find(partID wanted: String) -> MIMEPart? {
        if partID == wanted { return self }
        for child in children {
            if let found = child.find(partID: wanted) { return found }
        }
        return nil
    }

    /// The file name: Content-Disposition `filename`, else Content-Type `name`.
    public var filename: String? {
        let name = disposition?.filename ?? contentType.parameters["name"]
        return name?.isEmpty == false ? name : nil
    }

    /// Attachment rule of mailfs: an attachment disposition, a file name, or
    /// a type that is not a rendering of the message text (images,
    /// application/*, message/rfc822 as one attachment, and text that is
    /// data rather than prose: text/calendar invitations, text/csv, vCards).
    public var isAttachment: Bool {
        MessageParser.isAttachment(contentType: contentType, dispositionKind: disposition?.kind,
                                   hasFilename: filename != nil)
    }
}
