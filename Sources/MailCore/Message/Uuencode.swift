/// Decoding of uuencoded parts (`Content-Transfer-Encoding: x-uuencode`, also written
/// `uuencode`, `uue`, `x-uue`): not in RFC 2045, but sent by old mailers, and decoded by
/// Python's `email` and most readers.
///
///     begin 644 hi.txt
///     #:&D*
///     `
///     end
///
/// Each line starts with a length character (32 + n, n the decoded bytes of the line),
/// then groups of four characters (32 + six bits; `` ` `` is 0) of three bytes each.
/// Lenient as readers are: a short line decodes as if padded with zeros, and the data ends
/// at `end`, at an empty line or at the end of the part. A part without a `begin MODE`
/// line is not uuencoded: its bytes are the content, as Python's `email` serves them.
enum Uuencode {
    static let encodingNames: Set<String> = ["x-uuencode", "uuencode", "uue", "x-uue"]

    static func decode(_ body: ArraySlice<UInt8>, limit: Int = .max) -> [UInt8] {
        var lines = Lines(body)
        while let line = lines.next() {
            if isBeginLine(line) { return decodeData(&lines, limit: limit) }
        }
        return Array(body.prefix(limit))
    }

    /// `begin 644 name`: the word begin, an octal mode, then the file name.
    private static func isBeginLine(_ line: ArraySlice<UInt8>) -> Bool {
        let prefix = Array("begin ".utf8)
        guard line.starts(with: prefix) else { return false }
        let mode = line.dropFirst(prefix.count).prefix { $0 != ASCII.space }
        return !mode.isEmpty && mode.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) }
    }

    private static func decodeData(_ lines: inout Lines, limit: Int) -> [UInt8] {
        var output: [UInt8] = []
        while let line = lines.next(), output.count < limit {
            if line.isEmpty || trimmed(line).elementsEqual("end".utf8) { break }
            appendDecoded(line, to: &output)
        }
        return Array(output.prefix(limit))
    }

    private static func appendDecoded(_ line: ArraySlice<UInt8>, to output: inout [UInt8]) {
        let count = Int(sixBits(line.first ?? 0))
        let characters = line.dropFirst()
        func value(at index: Int) -> UInt32 {
            index < characters.endIndex ? UInt32(sixBits(characters[index])) : 0
        }
        var produced = 0
        var group = characters.startIndex
        while produced < count {
            let word = value(at: group) << 18 | value(at: group + 1) << 12 | value(at: group + 2) << 6 | value(at: group + 3)
            for shift: UInt32 in [16, 8, 0] where produced < count {
                output.append(UInt8(truncatingIfNeeded: word >> shift))
                produced += 1
            }
            group += 4
        }
    }

    private static func sixBits(_ character: UInt8) -> UInt8 {
        (character &- 32) & 63
    }

    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let start = line.firstIndex { !ASCII.isWhitespace($0) } ?? line.endIndex
        let end = line.lastIndex { !ASCII.isWhitespace($0) }.map { $0 + 1 } ?? start
        return line[start..<max(start, end)]
    }

    /// The lines of a part, without their CR LF, LF or CR.
    private struct Lines {
        let body: ArraySlice<UInt8>
        var position: Int

        init(_ body: ArraySlice<UInt8>) {
            self.body = body
            position = body.startIndex
        }

        mutating func next() -> ArraySlice<UInt8>? {
            guard position < body.endIndex else { return nil }
            let end = body[position...].firstIndex { $0 == ASCII.lf || $0 == ASCII.cr } ?? body.endIndex
            let line = body[position..<end]
            position = end
            if position < body.endIndex, body[position] == ASCII.cr { position += 1 }
            if position < body.endIndex, body[position] == ASCII.lf { position += 1 }
            return line
        }
    }
}
