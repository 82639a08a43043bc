/// Why a file dropped into `outbox/` is not sent. `reason` is the sentence
/// written to `.log` and `.status`; `close()` fails and nothing is queued.
public enum OutgoingRejection: Error, Equatable, Sendable {
    case emptyFile
    /// NUL bytes, or a body with many control bytes: an image, a program, an archive.
    case binaryContent
    /// The first line is not a header field.
    case notAMessage
    /// A header line that is neither `Name: value` nor a folded continuation (1-based line number).
    case malformedHeaderLine(line: Int, excerpt: String)
    /// A CR not followed by LF, which SMTP forbids and which could hide a header.
    case bareCarriageReturn(line: Int)
    case controlCharacterInHeader(field: String)
    case invalidUTF8InHeader(field: String)
    /// Non-ASCII in a field that has no encoding for it (Message-ID, Content-Type, ...).
    case nonASCIIInStructuredHeader(field: String)
    /// An encoded word that decodes to a line break: a header injection attempt.
    case headerInjection(field: String)
    case duplicateHeader(field: String)
    /// A header line over 998 bytes with no blank to fold at, or a field over the parser's limit.
    case headerTooLong(field: String)
    /// An address field with more tokens than mail servers keep: Postfix would cut it.
    case tooManyAddressTokens(field: String, tokens: Int)
    case headerSectionTooLarge
    case bodyLineTooLong(line: Int)
    /// 8-bit body without a Content-Type naming its charset, and not UTF-8.
    case bodyNotUTF8
    case noRecipient
    case invalidAddress(field: String, address: String)
    case fromNotSingleAddress(count: Int)
    case foreignFrom(address: String)
    /// Sender, Resent-From or Resent-Sender naming someone else.
    case foreignOriginator(field: String, address: String)
    case tooLarge(size: Int, limit: Int)

    public var reason: String {
        switch self {
        case .emptyFile: "empty file"
        case .binaryContent: "not a mail message: binary content"
        case .notAMessage: "not a mail message: the first line is not a header field (Name: value)"
        case .malformedHeaderLine(let line, let excerpt):
            "header line \(line) is malformed: \"\(excerpt)\" (expected Name: value, a folded continuation, "
                + "or an empty line before the body)"
        case .bareCarriageReturn(let line): "line \(line) has a carriage return not followed by a line feed"
        case .controlCharacterInHeader(let field): "header \(field) contains a control character"
        case .invalidUTF8InHeader(let field): "header \(field) is not valid UTF-8"
        case .nonASCIIInStructuredHeader(let field): "header \(field) cannot hold non-ASCII text"
        case .headerInjection(let field):
            "header \(field) hides a line break in an encoded word (header injection)"
        case .duplicateHeader(let field): "more than one \(field) header (only one is allowed)"
        case .headerTooLong(let field): "header \(field) is too long to send"
        case .tooManyAddressTokens(let field, let tokens):
            "header \(field) is too long to arrive whole: it has \(tokens) address tokens (names, @, dots, commas) "
                + "and mail servers keep the first \(AddressTokenCount.serverLimit) (Postfix's header_address_token_limit); "
                + "put recipients in Bcc, which may be given more than once"
        case .headerSectionTooLarge: "the header section is over 1 MB"
        case .bodyLineTooLong(let line): "body line \(line) is longer than 998 bytes"
        case .bodyNotUTF8: "the body is not UTF-8 text; add a Content-Type header naming its charset"
        case .noRecipient: "no recipient (To, Cc or Bcc)"
        case .invalidAddress(let field, let address): "\(field) has an invalid address \"\(address)\""
        case .fromNotSingleAddress(let count): "From must hold exactly one address, it has \(count)"
        case .foreignFrom(let address): "From <\(address)> is not this account's address or an alias"
        case .foreignOriginator(let field, let address): "\(field) <\(address)> is not this account's address or an alias"
        case .tooLarge(let size, let limit):
            "message is \(MessageSize.describe(size, beside: limit)), over the server's limit of "
                + MessageSize.describe(limit, beside: size)
        }
    }
}

/// Sizes in MB for people, rounded: whole MB when exact or when that tells
/// the two sizes apart (from 10 MB up), else one decimal, else exact bytes.
enum MessageSize {
    private static let megabyte = 1_048_576

    static func describe(_ bytes: Int, beside other: Int) -> String {
        let wholeDiffers = rounded(bytes, unit: megabyte) != rounded(other, unit: megabyte) && bytes >= 10 * megabyte
        if bytes % megabyte == 0 || wholeDiffers { return "\(rounded(bytes, unit: megabyte)) MB" }
        let tenths = rounded(bytes, unit: megabyte / 10)
        if tenths != rounded(other, unit: megabyte / 10) { return "\(tenths / 10).\(tenths % 10) MB" }
        return "\(bytes) bytes"
    }

    private static func rounded(_ bytes: Int, unit: Int) -> Int {
        (bytes + unit / 2) / unit
    }
}
