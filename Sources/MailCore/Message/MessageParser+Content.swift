extension MessageParser {
    /// Bodies and attachments from the MIME tree. An encapsulated message
    /// (message/rfc822) is one attachment: its own texts are not the body.
    static func fillContent(_ message: inout ParsedMessage, root: MIMEPart, raw: [UInt8]) {
        var pending = [root]
        while let part = pending.popLast() {
            message.partTypes.append(part.contentType.mimeType)
            if part.contentType.isMultipart {
                pending.append(contentsOf: part.children.reversed())
            } else if part.isAttachment {
                message.attachments.append(attachmentInfo(part, raw: raw))
            } else if part.contentType.subtype == "plain", message.bodyPlain == nil {
                message.bodyPlain = bodyText(part, raw: raw, truncated: &message.bodyTruncated)
            } else if part.contentType.subtype == "html", message.bodyHTML == nil {
                message.bodyHTML = bodyText(part, raw: raw, truncated: &message.bodyTruncated)
            }
        }
    }

    static func attachmentInfo(_ part: MIMEPart, raw: [UInt8]) -> AttachmentInfo {
        AttachmentInfo(
            partID: part.partID, filename: part.filename, mimeType: part.contentType.mimeType,
            encoding: part.transferEncoding,
            size: TransferEncoding.decodedCount(raw[part.bodyRange], encoding: part.transferEncoding),
            isInline: part.disposition?.isInline == true, contentID: part.contentID)
    }

    /// A text part decoded to a String with LF line ends, cut at `maxBodyBytes`
    /// (then ending with `truncationMarker`): what the store keeps, and what the message
    /// renderer shows of each text part.
    public static func bodyText(_ part: MIMEPart, raw: [UInt8], truncated: inout Bool) -> String {
        var bytes = TransferEncoding.decode(raw[part.bodyRange], encoding: part.transferEncoding,
                                            limit: maxBodyBytes + 1)
        let isCut = bytes.count > maxBodyBytes
        if isCut { bytes.removeLast(bytes.count - maxBodyBytes) }
        var text = Charset.decode(bytes[...], charset: part.contentType.charset ?? "")
        text = withLFLineEnds(text)
        guard isCut else { return text }
        truncated = true
        while text.unicodeScalars.last == "\u{FFFD}" { text.unicodeScalars.removeLast() }
        return text + truncationMarker
    }

    /// CR LF (and a lone CR) turned into LF.
    static func withLFLineEnds(_ text: String) -> String {
        var source = text
        let converted = source.withUTF8 { ByteSearch.lineEndsAsLF($0) }
        return converted.map { String(decoding: $0, as: UTF8.self) } ?? text
    }
}
