import Foundation

/// An RFC 5322 message for a test: the header fields tests vary, then the body.
///
///     TestMessage(subject: "Lunch", messageID: "lunch@test", body: "Noon?\r\n").bytes
///
/// The header holds From, To, Subject, Date, Message-ID, In-Reply-To and References, in that
/// order and each only when set, then `headers` as given; every header line ends with
/// `lineEnding`. An empty line follows, then the body exactly as given, so a test that checks
/// bytes gets its own (write a CRLF message's body with CR LF).
public struct TestMessage: Sendable {
    public enum LineEnding: String, Sendable {
        case crlf = "\r\n"
        case lf = "\n"
    }

    public static let defaultDate = "Sat, 21 Nov 2026 10:00:00 +0000"
    /// The header lines of a plain-text UTF-8 body, for `headers`.
    public static let plainText = ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8"]

    public var from: String?
    public var to: String?
    public var subject: String?
    /// The field's text; `MessageDate.rfc5322` writes one from a `Date`.
    public var date: String?
    /// Without its angle brackets, as are `inReplyTo` and `references`.
    public var messageID: String?
    public var inReplyTo: String?
    public var references: [String]
    /// Further header lines, after the fields above ("MIME-Version: 1.0").
    public var headers: [String]
    public var body: String
    public var lineEnding: LineEnding

    public init(from: String? = "Tester <tester@example.test>", to: String? = "alice@example.test",
                subject: String? = nil, date: String? = defaultDate, messageID: String? = nil,
                inReplyTo: String? = nil, references: [String] = [], headers: [String] = [],
                body: String = "", lineEnding: LineEnding = .crlf) {
        self.from = from
        self.to = to
        self.subject = subject
        self.date = date
        self.messageID = messageID
        self.inReplyTo = inReplyTo
        self.references = references
        self.headers = headers
        self.body = body
        self.lineEnding = lineEnding
    }

    public var headerLines: [String] {
        let fields: [(String, String?)] = [
            ("From", from), ("To", to), ("Subject", subject), ("Date", date),
            ("Message-ID", messageID.map { "<\($0)>" }), ("In-Reply-To", inReplyTo.map { "<\($0)>" }),
            ("References", references.isEmpty ? nil : references.map { "<\($0)>" }.joined(separator: " ")),
        ]
        return fields.compactMap { name, value in value.map { "\(name): \($0)" } } + headers
    }

    public var text: String {
        let ending = lineEnding.rawValue
        return headerLines.map { $0 + ending }.joined() + ending + body
    }

    public var bytes: [UInt8] { Array(text.utf8) }

    /// Writes the message to `url` (for seed.py, an import, a Maildir).
    public func write(to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }
}
