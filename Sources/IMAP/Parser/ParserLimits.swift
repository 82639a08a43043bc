/// Bounds on what the framer and parser accept from a server, so hostile or broken
/// input costs bounded memory and time.
public struct ParserLimits: Sendable, Equatable {
    /// Largest `{n}` literal accepted.
    public var maxLiteralSize: Int
    /// Largest literal handed out in pieces (`ResponseFramer.streamedLiteralMarker`): it
    /// is never held in memory, only written to the content cache.
    public var maxStreamedLiteralSize: Int
    /// Longest line (the text between literals) accepted, except in the lines that are
    /// legitimately huge (`SEARCH`, `ESEARCH`, `SORT`, `THREAD`, `VANISHED`).
    public var maxLineLength: Int
    /// Largest complete response (lines plus literals); also the cap of huge SEARCH lines.
    public var maxResponseSize: Int
    /// Deepest nesting of parenthesised lists (BODYSTRUCTURE recursion).
    public var maxNestingDepth: Int
    /// Most items in one parenthesised list (flags, parts, addresses, parameters).
    public var maxListItems: Int

    public init(
        maxLiteralSize: Int = 64 << 20,
        maxStreamedLiteralSize: Int = 4 << 30,
        maxLineLength: Int = 1 << 20,
        maxResponseSize: Int = 160 << 20,
        maxNestingDepth: Int = 64,
        maxListItems: Int = 100_000
    ) {
        self.maxLiteralSize = maxLiteralSize
        self.maxStreamedLiteralSize = maxStreamedLiteralSize
        self.maxLineLength = maxLineLength
        self.maxResponseSize = maxResponseSize
        self.maxNestingDepth = maxNestingDepth
        self.maxListItems = maxListItems
    }
}
