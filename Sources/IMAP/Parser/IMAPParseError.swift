/// Why a response could not be framed or parsed, with a hint and where.
///
/// A parse error concerns one response only: the framer has already cut the stream,
/// so the client can log the error and go on with the next response. A framing error
/// (`limitExceeded`, or `malformed` from the framer) leaves the stream unusable.
public struct IMAPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The bytes do not follow the grammar.
        case malformed
        /// The response ended before the grammar was complete (truncated unit).
        case incomplete
        /// A limit of `ParserLimits` was exceeded.
        case limitExceeded
    }

    public var kind: Kind
    public var hint: String
    /// Byte offset in the response (or in the framer's pending bytes).
    public var offset: Int

    public init(_ kind: Kind, _ hint: String, at offset: Int) {
        self.kind = kind
        self.hint = hint
        self.offset = offset
    }

    public var description: String {
        "IMAP parse error (\(kind)) at byte \(offset): \(hint)"
    }
}
