/// The section of a `BODY[…]` fetch item, in one canonical spelling so that a key built
/// from the command matches the one parsed from the response:
///
///     BODY[]                          -> ""
///     BODY[1.2]                       -> "1.2"
///     BODY[HEADER.FIELDS (From To)]   -> "HEADER.FIELDS (FROM TO)"
///     BODY[]<0>                       -> "", origin 0
///
/// The canonical spelling is upper-cased with single spaces (header field names and
/// section keywords are case-insensitive). `RFC822`, `RFC822.HEADER` and `RFC822.TEXT`
/// map to `""`, `"HEADER"` and `"TEXT"`.
public struct BodySection: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The canonical section text, without brackets.
    public let spec: String
    /// The `<n>` origin of a partial fetch, if any.
    public let origin: UInt32?

    public init(_ spec: String, origin: UInt32? = nil) {
        self.init(specBytes: spec.utf8, origin: origin)
    }

    /// The section from the raw bytes between the brackets, as the parser reads them.
    init(specBytes: some Sequence<UInt8>, origin: UInt32?) {
        spec = Self.canonical(specBytes)
        self.origin = origin
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String {
        origin.map { "[\(spec)]<\($0)>" } ?? "[\(spec)]"
    }

    /// Upper-cases ASCII letters and collapses whitespace, dropping it just inside
    /// parentheses. Works on bytes: it runs once per fetched section.
    private static func canonical(_ bytes: some Sequence<UInt8>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.underestimatedCount)
        var pendingSpace = false
        for byte in bytes {
            if byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace && byte != 0x29 && result.last != 0x28 { result.append(0x20) }
            pendingSpace = false
            result.append(byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}
