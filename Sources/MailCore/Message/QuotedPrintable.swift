/// Quoted-printable decoding (RFC 2045 §6.7), lenient: `=XX` in either case,
/// soft line breaks (`=` before CR LF or LF, even with blanks between),
/// trailing blanks of a line dropped, invalid escapes kept as written.
/// The same decoder serves the RFC 2047 "Q" encoding, where `_` is a space.
enum QuotedPrintable {
    static func decode(_ bytes: ArraySlice<UInt8>, underscoreIsSpace: Bool = false,
                       limit: Int = .max) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, bytes.count))
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end, output.count < limit {
            let byte = bytes[index]
            switch byte {
            case ASCII.equals:
                index = decodeEscape(bytes, at: index, into: &output)
            case ASCII.space, ASCII.tab:
                let blankEnd = endOfBlanks(bytes, from: index)
                if blankEnd < end, bytes[blankEnd] != ASCII.cr, bytes[blankEnd] != ASCII.lf {
                    output.append(contentsOf: bytes[index..<blankEnd])
                } else if blankEnd == end, underscoreIsSpace {
                    output.append(contentsOf: bytes[index..<blankEnd])
                }
                index = blankEnd
            case ASCII.underscore where underscoreIsSpace:
                output.append(ASCII.space)
                index += 1
            default:
                output.append(byte)
                index += 1
            }
        }
        if output.count > limit { output.removeLast(output.count - limit) }
        return output
    }

    /// Handles the `=` at `index`; returns the index after what it consumed.
    private static func decodeEscape(_ bytes: ArraySlice<UInt8>, at index: Int,
                                     into output: inout [UInt8]) -> Int {
        let end = bytes.endIndex
        if index + 2 < end, let high = ASCII.hexValue(bytes[index + 1]),
           let low = ASCII.hexValue(bytes[index + 2]) {
            output.append(high << 4 | low)
            return index + 3
        }
        // Soft line break: "=" then optional blanks then CR LF / LF / end.
        let blankEnd = endOfBlanks(bytes, from: index + 1)
        if blankEnd == end { return end }
        if bytes[blankEnd] == ASCII.lf { return blankEnd + 1 }
        if bytes[blankEnd] == ASCII.cr {
            return blankEnd + 1 < end && bytes[blankEnd + 1] == ASCII.lf ? blankEnd + 2 : blankEnd + 1
        }
        output.append(ASCII.equals)
        return index + 1
    }

    private static func endOfBlanks(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.endIndex, ASCII.isBlank(bytes[index]) { index += 1 }
        return index
    }
}
