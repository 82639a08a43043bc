/// Content-Transfer-Encoding decoding (RFC 2045 §6): base64 and
/// quoted-printable are decoded leniently, and so is uuencode (not in the RFC, but
/// sent by old mailers); 7bit, 8bit, binary and unknown encodings are passed through
/// as they are.
enum TransferEncoding {
    static func decode(_ body: ArraySlice<UInt8>, encoding: String, limit: Int = .max) -> [UInt8] {
        switch encoding {
        case "base64":
            return Base64.decode(body, limit: limit)
        case "quoted-printable":
            return QuotedPrintable.decode(body, limit: limit)
        case _ where Uuencode.encodingNames.contains(encoding):
            return Uuencode.decode(body, limit: limit)
        default:
            return Array(body.prefix(limit))
        }
    }

    /// The decoded size in bytes, computed without keeping the content when possible.
    static func decodedCount(_ body: ArraySlice<UInt8>, encoding: String) -> Int {
        switch encoding {
        case "base64":
            return Base64.decodedCount(body)
        case "quoted-printable":
            return QuotedPrintable.decode(body).count
        case _ where Uuencode.encodingNames.contains(encoding):
            return Uuencode.decode(body).count
        default:
            return body.count
        }
    }

    /// The encoding named by a Content-Transfer-Encoding value: its first
    /// word, lower-cased; "7bit" when absent or empty.
    static func name(_ raw: String?) -> String {
        guard let raw else { return "7bit" }
        let word = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ";" || $0 == "(" }).first
        return word.map { $0.lowercased() } ?? "7bit"
    }

    /// True for encodings whose bytes are the content itself.
    static func isIdentity(_ encoding: String) -> Bool {
        encoding != "base64" && encoding != "quoted-printable" && !Uuencode.encodingNames.contains(encoding)
    }
}
