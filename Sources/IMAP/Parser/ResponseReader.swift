/// A cursor over one response: the primitive tokens of RFC 3501 §9, read liberally.
///
/// `end` excludes the final CRLF, so "at end" means "at the end of the response".
/// A reader can be narrowed to a sub-range (a bracketed code) by copying it: the bytes
/// are shared, not copied.
struct ResponseReader {
    let bytes: [UInt8]
    let limits: ParserLimits
    var position: Int
    var end: Int
    /// Current nesting of parenthesised lists, capped by `limits.maxNestingDepth`.
    var depth = 0

    init(_ bytes: [UInt8], limits: ParserLimits) {
        self.bytes = bytes
        self.limits = limits
        position = 0
        var end = bytes.count
        if end > 0 && bytes[end - 1] == Byte.lf { end -= 1 }
        if end > 0 && bytes[end - 1] == Byte.cr { end -= 1 }
        self.end = end
    }

    var isAtEnd: Bool { position >= end }

    func peek() -> UInt8? {
        position < end ? bytes[position] : nil
    }

    func peek(offset: Int) -> UInt8? {
        position + offset < end ? bytes[position + offset] : nil
    }

    /// An error at the current position: `incomplete` when the response ran out.
    func error(_ hint: String) -> IMAPParseError {
        IMAPParseError(isAtEnd ? .incomplete : .malformed, hint, at: position)
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(IMAPParseError) {
        guard peek() == byte else { throw error("expected \(what)") }
        position += 1
    }

    /// Consumes `byte` if it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    /// Skips any run of spaces: servers omit or double the single SP of the grammar.
    mutating func skipSpaces() {
        while position < end, bytes[position] == Byte.space || bytes[position] == Byte.tab {
            position += 1
        }
    }

    /// The rest of the response as text, raw (resp-text, unknown responses).
    mutating func readRest() -> String {
        let text = String(decoding: bytes[min(position, end)..<end], as: UTF8.self)
        position = end
        return text
    }

    /// Whether `byte` ends an atom: SP, parentheses, CR, LF, controls, and `extra`.
    static func endsAtom(_ byte: UInt8, _ extra: UInt8? = nil) -> Bool {
        byte <= Byte.space || byte == Byte.openParen || byte == Byte.closeParen
            || byte == 0x7F || byte == extra
    }

    /// Whether `byte` may follow a keyword: an atom end, a bracket (`OK[ALERT]`,
    /// `BODY[]`) or a quote (Outlook's missing space in `NIL"<id@x>"`).
    static func endsKeyword(_ byte: UInt8) -> Bool {
        endsAtom(byte) || byte == Byte.openBracket || byte == Byte.closeBracket || byte == Byte.quote
    }

    /// A run of atom characters (possibly containing `"`, as Outlook sends), ending
    /// before SP, parentheses, controls or `stop`. Throws when empty.
    mutating func readAtomBytes(stop: UInt8? = nil) throws(IMAPParseError) -> ArraySlice<UInt8> {
        let start = position
        while position < end, !Self.endsAtom(bytes[position], stop) {
            position += 1
        }
        guard position > start else { throw error("expected an atom") }
        return bytes[start..<position]
    }

    mutating func readAtom(stop: UInt8? = nil) throws(IMAPParseError) -> String {
        String(decoding: try readAtomBytes(stop: stop), as: UTF8.self)
    }

    /// An atom upper-cased, for keywords (`FETCH`, `UIDNEXT`).
    mutating func readKeyword(stop: UInt8? = nil) throws(IMAPParseError) -> String {
        let atom = try readAtomBytes(stop: stop)
        return String(unsafeUninitializedCapacity: atom.count) { buffer in
            for (offset, byte) in atom.enumerated() { buffer[offset] = Byte.uppercased(byte) }
            return atom.count
        }
    }

    /// Whether the next atom is `keyword` (ASCII, case-insensitive); consumes it if so.
    mutating func consumeKeyword(_ keyword: StaticString) -> Bool {
        let count = keyword.utf8CodeUnitCount
        guard position + count <= end else { return false }
        let matches = keyword.withUTF8Buffer { expected in
            expected.indices.allSatisfy { Byte.uppercased(bytes[position + $0]) == expected[$0] }
        }
        guard matches, position + count == end || Self.endsKeyword(bytes[position + count]) else { return false }
        position += count
        return true
    }

    /// number = 1*DIGIT, up to `UInt64.max`.
    mutating func readNumber() throws(IMAPParseError) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        while position < end, let digit = Byte.digitValue(bytes[position]) {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(digit))
            guard !overflow1 && !overflow2 else { throw error("number too large") }
            value = sum
            position += 1
        }
        guard position > start else { throw error("expected a number") }
        return value
    }

    mutating func readUInt32() throws(IMAPParseError) -> UInt32 {
        let start = position
        let value = try readNumber()
        guard value <= UInt64(UInt32.max) else {
            throw IMAPParseError(.malformed, "number above 2^32-1", at: start)
        }
        return UInt32(value)
    }

    mutating func readInt() throws(IMAPParseError) -> Int {
        let start = position
        let value = try readNumber()
        guard value <= UInt64(Int32.max) else {
            throw IMAPParseError(.malformed, "count too large", at: start)
        }
        return Int(value)
    }

    /// Increments the nesting depth, refusing to go past the limit.
    mutating func enterNesting() throws(IMAPParseError) {
        depth += 1
        guard depth <= limits.maxNestingDepth else {
            throw IMAPParseError(.limitExceeded, "nesting deeper than \(limits.maxNestingDepth)", at: position)
        }
    }

    mutating func leaveNesting() {
        depth -= 1
    }
}
