/// Parses raw RFC 5322 / MIME messages into `ParsedMessage`. Never fails:
/// broken input yields a best-effort value, and work is bounded (header caps,
/// MIME depth cap, body cap) so hostile messages parse quickly.
public enum MessageParser {
    /// Longest text/plain or text/html body kept, in decoded bytes.
    public static let maxBodyBytes = 10 * 1024 * 1024
    /// The line appended to a body cut at `maxBodyBytes`.
    public static let truncationMarker = "\n[mailfs: body truncated at 10 MB]\n"

    public static func parse(_ raw: [UInt8]) -> ParsedMessage {
        let header = HeaderBlock.parse(raw[...], isMessage: true)
        var message = ParsedMessage()
        message.headers = header.fields
        fillEnvelope(&message)
        let root = MIMETree.parse(raw, header: header)
        fillContent(&message, root: root, raw: raw)
        return message
    }

    /// The Message-ID `parse` would give for a message with this header, reading no other
    /// field: the sync asks it of every new message's header before it downloads the body.
    public static func messageID(ofHeader raw: [UInt8]) -> String? {
        HeaderBlock.parse(raw[...], isMessage: true).value("message-id").flatMap(MessageIDList.first)
    }

    /// The index where the body of the message starts (after the header and
    /// its blank line); `raw.count` when there is no body.
    public static func headerBlockEnd(_ raw: [UInt8]) -> Int {
        HeaderBlock.parse(raw[...], isMessage: true).bodyStart
    }

    /// The MIME structure of a message, parts numbered as IMAP numbers them.
    public static func structure(_ raw: [UInt8]) -> MIMEPart {
        MIMETree.parse(raw, header: HeaderBlock.parse(raw[...], isMessage: true))
    }

    /// The transfer-decoded bytes of one part, by IMAP section number ("1",
    /// "2.1"), as served for an attachment file; nil when there is no such part.
    public static func decodedContent(ofPart partID: String, in raw: [UInt8]) -> [UInt8]? {
        guard let part = structure(raw).find(partID: partID) else { return nil }
        return TransferEncoding.decode(raw[part.bodyRange], encoding: part.transferEncoding)
    }

    /// A part's body as fetched alone (`BODY[2]`), decoded by its Content-Transfer-Encoding
    /// ("base64", "quoted-printable"; anything else is the content itself).
    public static func decodeTransferEncoding(_ body: [UInt8], encoding: String) -> [UInt8] {
        TransferEncoding.decode(body[...], encoding: TransferEncoding.name(encoding))
    }

    /// Message-ID, In-Reply-To, References, addresses, subject and date.
    static func fillEnvelope(_ message: inout ParsedMessage) {
        message.messageID = message.header("Message-ID").flatMap(MessageIDList.first)
        message.inReplyTo = message.header("In-Reply-To").map(MessageIDList.parse) ?? []
        message.references = message.header("References").map(MessageIDList.parse) ?? []
        message.from = addresses(message, "From")
        message.to = addresses(message, "To")
        message.cc = addresses(message, "Cc")
        message.bcc = addresses(message, "Bcc")
        message.replyTo = addresses(message, "Reply-To")
        message.subject = message.header("Subject").map(HeaderText.unstructured) ?? ""
        message.date = message.header("Date").flatMap(DateParser.parse)
    }

    /// The addresses of every field with this name (some mailers repeat To).
    private static func addresses(_ message: ParsedMessage, _ name: String) -> [EmailAddress] {
        let wanted = name.lowercased()
        return message.headers
            .filter { $0.hasName(lowercased: wanted) }
            .flatMap { AddressParser.parseList($0.rawValue) }
    }
}
