/// What the account allows a message dropped into `outbox/` to say: whose
/// From it may carry, the From to add when there is none, the domain of the
/// Message-IDs we make, and the server's size limit (SMTP SIZE).
public struct OutgoingPolicy: Sendable, Equatable {
    public var accountAddress: String
    /// Other addresses the account may send as (config `aliases`).
    public var aliases: [String]
    /// The display name of the From we add; nil for a bare address.
    public var displayName: String?
    /// The largest message the server takes, in bytes; nil when it announces none.
    public var maxSize: Int?

    public init(accountAddress: String, aliases: [String] = [], displayName: String? = nil, maxSize: Int? = nil) {
        self.accountAddress = accountAddress
        self.aliases = aliases
        self.displayName = displayName
        self.maxSize = maxSize
    }

    /// The right-hand side of the Message-IDs we add: the account's domain,
    /// reduced to the characters a Message-ID may hold.
    public var messageIdDomain: String {
        guard let at = accountAddress.lastIndex(of: "@") else { return Self.fallbackDomain }
        let safe = MessageIDToken.sanitized(String(accountAddress[accountAddress.index(after: at)...]))
        return safe.isEmpty ? Self.fallbackDomain : safe
    }

    private static let fallbackDomain = "mailfs.invalid"

    /// True when `address` is the account's address or one of its aliases,
    /// compared without case.
    func mayAppearInFrom(_ address: String) -> Bool {
        let wanted = address.lowercased()
        return ([accountAddress] + aliases).contains { $0.lowercased() == wanted }
    }
}

/// The pieces of a Message-ID we make: only RFC 5322 atext and dots, so no
/// configuration value or caller token can break the header.
enum MessageIDToken {
    static func sanitized(_ text: String) -> String {
        let kept = text.unicodeScalars.filter { scalar in
            scalar.isASCII && (isAText(UInt8(scalar.value)) || scalar == ".")
        }
        return String(String.UnicodeScalarView(kept)).trimmingDots()
    }

    /// RFC 5322 §3.2.3 atext.
    static func isAText(_ byte: UInt8) -> Bool {
        ASCII.isLetter(byte) || ASCII.isDigit(byte) || atextSymbols.contains(byte)
    }

    private static let atextSymbols: Set<UInt8> = Set("!#$%&'*+-/=?^_`{|}~".utf8)
}

private extension String {
    /// Without leading, trailing or doubled dots (a dot-atom has none).
    func trimmingDots() -> String {
        split(separator: ".", omittingEmptySubsequences: true).joined(separator: ".")
    }
}
