/// What a server's EHLO reply offers (RFC 5321 §4.1.1.1): every line after the first is
/// `keyword *(SP param)`.
///
///     S: 250-smtp.example.com
///     S: 250-PIPELINING
///     S: 250-SIZE 10240000
///     S: 250-AUTH PLAIN LOGIN XOAUTH2
///     S: 250 8BITMIME
public struct SMTPCapabilities: Sendable, Equatable {
    /// Keywords upper-cased, each with its parameters as sent.
    public private(set) var keywords: [String: [String]] = [:]

    public init() {}

    /// Reads the lines of a 250 reply to EHLO; the first line (the server's name and
    /// greeting) is not a keyword.
    public init(ehloReply reply: SMTPReply) {
        for line in reply.lines.dropFirst() {
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let first = words.first else { continue }
            // Old servers spell it `AUTH=PLAIN LOGIN`; the mechanisms are the same.
            if first.uppercased().hasPrefix("AUTH=") {
                add("AUTH", [String(first.dropFirst(5))] + words.dropFirst())
            } else {
                add(first.uppercased(), Array(words.dropFirst()))
            }
        }
    }

    private mutating func add(_ keyword: String, _ parameters: [String]) {
        keywords[keyword, default: []].append(contentsOf: parameters)
    }

    public func supports(_ keyword: String) -> Bool {
        keywords[keyword.uppercased()] != nil
    }

    public var startTLS: Bool { supports("STARTTLS") }
    public var pipelining: Bool { supports("PIPELINING") }
    public var eightBitMIME: Bool { supports("8BITMIME") }
    public var smtpUTF8: Bool { supports("SMTPUTF8") }

    /// The SASL mechanisms of the AUTH keyword, upper-cased.
    public var authMechanisms: Set<String> {
        Set((keywords["AUTH"] ?? []).map { $0.uppercased() })
    }

    /// The largest message the server takes (RFC 1870), nil when it states no limit
    /// (no SIZE, `SIZE` alone, `SIZE 0`, or a number that makes no sense).
    public var maximumSize: Int? {
        guard let text = keywords["SIZE"]?.first, let size = Int(text), size > 0 else { return nil }
        return size
    }
}
