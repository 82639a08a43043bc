/// Decodes a Content-Transfer-Encoding piece by piece, as a download arrives
/// (docs/ARCHITECTURE.md, "Lazy content"): the outputs of `decode` for every piece, then
/// `finish`, joined, are what `MessageParser.decodeTransferEncoding` gives for the whole
/// input, wherever the input was cut.
///
///     var decoder = TransferDecoder(encoding: "base64")
///     decoder.decode(Array("SGVsb".utf8)) + decoder.decode(Array("G8=".utf8)) + decoder.finish()
///     // "Hello"
public struct TransferDecoder: Sendable {
    private enum Method: Sendable {
        case base64(Base64.State)
        case quotedPrintable(QuotedPrintableCarry)
        /// Uuencode is held whole and decoded at the end: whether a part is uuencoded at
        /// all depends on its `begin` line, and such parts (old mailers) are rare and small.
        case uuencode([UInt8])
        case identity
    }

    private var method: Method

    /// `encoding` is the Content-Transfer-Encoding value as the message gives it.
    public init(encoding: String) {
        switch TransferEncoding.name(encoding) {
        case "base64": method = .base64(Base64.State())
        case "quoted-printable": method = .quotedPrintable(QuotedPrintableCarry())
        case let name where Uuencode.encodingNames.contains(name): method = .uuencode([])
        default: method = .identity
        }
    }

    /// The decoded bytes `piece` completes; some may wait for the next piece.
    public mutating func decode(_ piece: [UInt8]) -> [UInt8] {
        switch method {
        case .base64(var state):
            let decoded = Base64.decode(piece[...], continuing: &state)
            method = .base64(state)
            return decoded
        case .quotedPrintable(var carry):
            method = .identity  // keeps `carry` uniquely referenced while it changes
            let decoded = carry.decode(piece)
            method = .quotedPrintable(carry)
            return decoded
        case .uuencode(var held):
            method = .identity  // keeps `held` uniquely referenced while it grows
            held += piece
            method = .uuencode(held)
            return []
        case .identity:
            return piece
        }
    }

    /// What was held back for lack of a next piece, at the end of the input.
    public mutating func finish() -> [UInt8] {
        switch method {
        case .quotedPrintable(var carry):
            let decoded = carry.finish()
            method = .quotedPrintable(carry)
            return decoded
        case .uuencode(let held):
            method = .uuencode([])
            return Uuencode.decode(held[...])
        default:
            return []
        }
    }
}

/// Quoted-printable by pieces: the input is decoded up to the last point where no rule
/// of `QuotedPrintable.decode` looks past it (an escape `=XX`, a soft line break, trailing
/// blanks), the rest is carried to the next piece. Decoding each part alone then gives
/// the same bytes as decoding the whole.
struct QuotedPrintableCarry: Sendable {
    /// Input with no such point (`=A=A=A…`, megabytes of blanks) is decoded anyway once
    /// this long, so memory stays bounded; only such input can decode differently.
    static let maxCarry = 1 << 20

    private var carry: [UInt8] = []

    mutating func decode(_ piece: [UInt8]) -> [UInt8] {
        carry.append(contentsOf: piece)
        var split = Self.lastSafeSplit(carry)
        if split == 0 && carry.count > Self.maxCarry { split = carry.count - 2 }
        guard split > 0 else { return [] }
        let decoded = QuotedPrintable.decode(carry[..<split])
        carry.removeSubrange(..<split)
        return decoded
    }

    mutating func finish() -> [UInt8] {
        defer { carry = [] }
        return QuotedPrintable.decode(carry[...])
    }

    /// The largest index where `bytes` may be cut (0 for none): after a line feed, or after
    /// a byte that is no blank, CR or `=` and does not end `=X` with X a hex digit.
    static func lastSafeSplit(_ bytes: [UInt8]) -> Int {
        var split = bytes.count
        while split > 0 {
            if isSafeSplit(bytes, split) { return split }
            split -= 1
        }
        return 0
    }

    private static func isSafeSplit(_ bytes: [UInt8], _ split: Int) -> Bool {
        let last = bytes[split - 1]
        if last == ASCII.lf { return true }
        if ASCII.isBlank(last) || last == ASCII.cr || last == ASCII.equals { return false }
        return !(split >= 2 && bytes[split - 2] == ASCII.equals && ASCII.hexValue(last) != nil)
    }
}
