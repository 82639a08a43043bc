/// The parser's rules for parts that arrive one by one (IMAP BODYSTRUCTURE and
/// BODY.PEEK[<section>]) instead of inside a whole message, so a message synced in
/// parts is read exactly like one parsed whole.
extension MessageParser {
    /// A text part's bytes as a String: transfer-decoded, charset-converted, LF line
    /// ends, with the truncation marker when `truncated` says the part was cut.
    public static func decodeText(_ bytes: [UInt8], transferEncoding: String, charset: String?,
                                  truncated: Bool) -> String {
        let decoded = TransferEncoding.decode(bytes[...], encoding: TransferEncoding.name(transferEncoding),
                                              limit: maxBodyBytes)
        let text = withLFLineEnds(Charset.decode(decoded[...], charset: charset ?? ""))
        return truncated ? text + truncationMarker : text
    }

    /// The file name a part announces: `filename` of the disposition parameters, else
    /// `name` of the content-type parameters, RFC 2231 and RFC 2047 decoded.
    public static func filename(dispositionParameters: [String: String]?,
                                typeParameters: [String: String]) -> String? {
        let disposition = dispositionParameters.map { ContentDisposition.parse("attachment" + render($0)) }
        let type = ContentType.parse("application/octet-stream" + render(typeParameters))
        let name = disposition?.filename ?? type?.parameters["name"]
        return name?.isEmpty == false ? name : nil
    }

    /// The attachment rule of mailfs, for a parsed part (`MIMEPart.isAttachment`) and for
    /// one known only by its BODYSTRUCTURE: an attachment disposition, a file name, or a
    /// type that is not a rendering of the message text.
    public static func isAttachment(contentType: ContentType, dispositionKind: String?,
                                    hasFilename: Bool) -> Bool {
        dispositionKind?.lowercased() == "attachment" || hasFilename
            || !(contentType.isMultipart || contentType.isBodyText)
    }

    /// `; key="value"` pairs, so the MIME parameter parser (RFC 2231 continuations and
    /// charsets, RFC 2047 words) reads parameters that IMAP already split apart.
    private static func render(_ parameters: [String: String]) -> String {
        parameters.sorted { $0.key < $1.key }.map { key, value in
            // RFC 2231 extended values (`name*=utf-8''...`) are written bare, as on the wire.
            if key.hasSuffix("*"), !value.contains(where: { " \t;\"\\".contains($0) }) {
                return "; \(key)=\(value)"
            }
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "; \(key)=\"\(escaped)\""
        }.joined()
    }
}
