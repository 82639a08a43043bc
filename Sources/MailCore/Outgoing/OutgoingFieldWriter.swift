/// Writes the header fields of an outgoing message: the user's own, byte for
/// byte when they are fit to send, else encoded and folded; and ours.
enum OutgoingFieldWriter {
    static let maxLineBytes = 998

    /// How non-ASCII text in a field can be encoded.
    private enum Encoding {
        /// Display names, group names and comments only (RFC 2047 §5(2), §5(3)).
        case phrases
        /// The whole value is text (§5(1)).
        case unstructured
        /// No encoding exists: ids, dates, MIME parameters.
        case none
    }

    private static let phraseFields: Set<String> = [
        "from", "sender", "reply-to", "to", "cc", "bcc", "resent-from", "resent-sender", "resent-to", "resent-cc",
        "resent-bcc", "mail-followup-to", "mail-reply-to", "disposition-notification-to", "return-receipt-to",
        "keywords",
    ]

    private static let unencodableFields: Set<String> = [
        "date", "message-id", "in-reply-to", "references", "resent-date", "resent-message-id", "mime-version",
        "content-type", "content-transfer-encoding", "content-disposition", "content-id", "return-path", "received",
    ]

    private static func encoding(of lowercasedName: String) -> Encoding {
        if phraseFields.contains(lowercasedName) { return .phrases }
        return unencodableFields.contains(lowercasedName) ? .none : .unstructured
    }

    /// The user's field as transmitted: its own lines when they are ASCII (or
    /// hold only non-ASCII addresses) and short enough, else re-encoded and folded.
    /// An address field longer than servers keep whole is refused (`AddressTokenCount`).
    static func userField(_ field: OutgoingField) throws(OutgoingRejection) -> [UInt8] {
        let hasLongLine = field.lines.contains { $0.count > maxLineBytes }
        var value = field.text
        if !field.text.utf8.allSatisfy({ $0 < 0x80 }) {
            switch encoding(of: field.lowercasedName) {
            case .phrases: value = PhraseFieldText.encoded(field.text)
            case .unstructured: value = UnstructuredText.encoded(field.text)
            case .none: throw .nonASCIIInStructuredHeader(field: field.name)
            }
        }
        if AddressTokenCount.addressFields.contains(field.lowercasedName) {
            let tokens = AddressTokenCount.of(value)
            if tokens > AddressTokenCount.serverLimit { throw .tooManyAddressTokens(field: field.name, tokens: tokens) }
        }
        guard value != field.text || hasLongLine else {
            return field.lines.flatMap { Array($0) + HeaderFolder.crlf }
        }
        return try folded(name: field.name, value: value)
    }

    /// A field we write, folded, refused when a line would still be over 998 bytes.
    static func folded(name: String, value: String) throws(OutgoingRejection) -> [UInt8] {
        let bytes = HeaderFolder.field(name: name, value: value)
        let lines = bytes.split(separator: ASCII.lf, omittingEmptySubsequences: false)
        guard lines.allSatisfy({ $0.count <= maxLineBytes + 1 }) else { throw .headerTooLong(field: name) }
        return bytes
    }

    /// A display name as an RFC 5322 phrase: atoms as they are, a quoted
    /// string when it holds specials, encoded words when it holds non-ASCII.
    static func phrase(_ name: String) -> String {
        let clean = HeaderText.collapsingWhitespace(name)
        if !clean.utf8.allSatisfy({ $0 < 0x80 }) {
            return EncodedWordEncoder.encode(clean).joined(separator: " ")
        }
        if clean.utf8.allSatisfy({ MessageIDToken.isAText($0) || $0 == ASCII.space }) { return clean }
        var quoted = "\""
        for character in clean {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
