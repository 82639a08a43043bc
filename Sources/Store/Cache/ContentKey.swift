/// What one lazily downloaded file holds: a whole message (`BODY.PEEK[]`) or one body
/// part of it (`BODY.PEEK[<part>]`, decoded).
public struct ContentKey: Hashable, Sendable, CustomStringConvertible {
    public var emailId: Int64
    /// The IMAP section ("2", "1.3"); nil for the whole message.
    public var partId: String?

    public init(emailId: Int64, partId: String? = nil) {
        self.emailId = emailId
        self.partId = partId
    }

    public static func message(_ emailId: Int64) -> ContentKey { ContentKey(emailId: emailId) }

    /// The cache file's name, built from numbers only so no header text can shape a path.
    /// nil for a section that is not `digits(.digits)*` (never stored by sync).
    var fileName: String? {
        guard let partId else { return "\(emailId).eml" }
        let numbers = partId.split(separator: ".", omittingEmptySubsequences: false)
        guard !numbers.isEmpty, numbers.count <= 32,
              numbers.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCIIDigit) }) else {
            return nil
        }
        return "\(emailId)-\(partId).part"
    }

    /// The `partId` column: "" stands for the whole message.
    var storedPartId: String { partId ?? "" }

    public var description: String {
        partId.map { "message \(emailId) part \($0)" } ?? "message \(emailId)"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
