/// Parses one complete response (as cut by `ResponseFramer`) into a `Response`.
///
///     var framer = ResponseFramer()
///     var parser = ResponseParser()
///     framer.append(bytesFromServer)
///     while case .response(let unit) = try framer.next() {
///         let response = try parser.parse(unit)   // a parse error spoils this unit only
///     }
///
/// Liberal in what it accepts (docs/IMAP-QUIRKS.md §1): unknown responses and codes become
/// `.other`, a broken BODYSTRUCTURE is contained to its item. Malformed input throws
/// `IMAPParseError`; it never traps, and recursion and list sizes are bounded.
public struct ResponseParser: Sendable {
    public let limits: ParserLimits

    public init(limits: ParserLimits = ParserLimits()) {
        self.limits = limits
    }

    /// Parses `unit`: one response, literals embedded in place, ending in CRLF.
    public mutating func parse(_ unit: [UInt8]) throws(IMAPParseError) -> Response {
        var reader = ResponseReader(unit, limits: limits)
        return try reader.readResponse()
    }
}
