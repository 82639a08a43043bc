/// One complete server reply: a three-digit code and its text lines (RFC 5321 §4.2).
///
///     S: 250-smtp.example.com Hello [192.0.2.7]
///     S: 250-SIZE 35882577
///     S: 250 8BITMIME
///
/// is `SMTPReply(code: 250, lines: ["smtp.example.com Hello [192.0.2.7]", "SIZE 35882577", "8BITMIME"])`.
/// The text is the server's, as sent (control characters replaced), so errors can quote it.
public struct SMTPReply: Sendable, Equatable, CustomStringConvertible {
    /// 200...599; the first digit says success, intermediate, transient or permanent.
    public var code: Int
    /// The text of each line, without the code and its separator; at least one entry.
    public var lines: [String]

    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines.isEmpty ? [""] : lines
    }

    /// What the first digit says about the command.
    public enum Kind: Sendable, Equatable {
        /// 2yz: done.
        case positiveCompletion
        /// 3yz: go on (354 after DATA, 334 during AUTH).
        case positiveIntermediate
        /// 4yz: not now; the same command may succeed later.
        case transientNegative
        /// 5yz: never; do not retry as is.
        case permanentNegative
    }

    public var kind: Kind {
        switch code / 100 {
        case 2: .positiveCompletion
        case 3: .positiveIntermediate
        case 4: .transientNegative
        default: .permanentNegative
        }
    }

    /// The RFC 3463 code at the start of the first line (`5.1.1`), when the server sent one
    /// whose class agrees with the reply code.
    public var enhancedCode: EnhancedStatusCode? {
        guard let code = EnhancedStatusCode(prefixOf: lines[0]), code.statusClass == self.code / 100 else {
            return nil
        }
        return code
    }

    /// All lines joined by spaces: what an error message or `.status` shows.
    public var text: String { lines.joined(separator: " ") }

    public var description: String { text.isEmpty ? "\(code)" : "\(code) \(text)" }
}

/// An enhanced mail system status code, `class.subject.detail` (RFC 3463), e.g. `5.1.1`
/// (bad destination mailbox) or `4.7.0` (temporary security failure).
public struct EnhancedStatusCode: Sendable, Equatable, CustomStringConvertible {
    /// 2, 4 or 5.
    public var statusClass: Int
    public var subject: Int
    public var detail: Int

    public init(statusClass: Int, subject: Int, detail: Int) {
        self.statusClass = statusClass
        self.subject = subject
        self.detail = detail
    }

    /// status-code = class "." subject "." detail ; class = "2" / "4" / "5"
    /// subject = 1*3digit ; detail = 1*3digit — followed by a space or the end of the text.
    init?(prefixOf text: String) {
        let word = text.prefix { $0 != " " }
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              parts.allSatisfy({ (1...3).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
              let statusClass = Int(parts[0]), [2, 4, 5].contains(statusClass), parts[0].count == 1,
              let subject = Int(parts[1]), let detail = Int(parts[2])
        else { return nil }
        self.init(statusClass: statusClass, subject: subject, detail: detail)
    }

    public var description: String { "\(statusClass).\(subject).\(detail)" }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
