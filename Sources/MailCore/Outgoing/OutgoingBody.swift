/// The body of an outgoing file, measured and turned into CRLF lines.
///
/// SMTP (RFC 5321 §2.3.8, §4.5.3.1.6) wants CRLF line ends, no bare CR or
/// LF, and lines of at most 998 bytes; RFC 5322 says the same of a message.
struct OutgoingBody {
    /// The lines without their line ends.
    var lines: [ArraySlice<UInt8>]
    var has8Bit: Bool
    /// The 1-based file line number of the first line over 998 bytes, if any.
    var firstLongLine: Int?
    var isUTF8: Bool

    static let maxLineBytes = 998

    /// Splits `bytes` at LF or CR LF; `firstLine` numbers the lines for messages.
    static func parse(_ bytes: ArraySlice<UInt8>, firstLine: Int) throws(OutgoingRejection) -> OutgoingBody {
        if looksBinary(bytes) { throw .binaryContent }
        var body = OutgoingBody(lines: [], has8Bit: false, firstLongLine: nil,
                                isUTF8: String(validating: bytes, as: UTF8.self) != nil)
        var cursor = bytes.startIndex
        while cursor < bytes.endIndex {
            let line = ByteSearch.line(startingAt: cursor, in: bytes)
            let content = bytes[cursor..<line.contentEnd]
            let lineNumber = firstLine + body.lines.count
            if content.contains(ASCII.cr) { throw .bareCarriageReturn(line: lineNumber) }
            if content.count > maxLineBytes, body.firstLongLine == nil { body.firstLongLine = lineNumber }
            if !body.has8Bit, content.contains(where: { $0 >= 0x80 }) { body.has8Bit = true }
            body.lines.append(content)
            cursor = line.next
        }
        return body
    }

    /// The body as transmitted: every line, each ending in CR LF.
    var crlfBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(lines.reduce(0) { $0 + $1.count + 2 })
        for line in lines {
            output.append(contentsOf: line)
            output.append(contentsOf: [ASCII.cr, ASCII.lf])
        }
        return output
    }

    /// More than one byte in a hundred is a control character that text does
    /// not use (TAB, LF, CR, form feed and ESC of ISO-2022 are text).
    private static func looksBinary(_ bytes: ArraySlice<UInt8>) -> Bool {
        var controls = 0
        for byte in bytes where byte < ASCII.space || byte == 0x7F {
            switch byte {
            case ASCII.tab, ASCII.lf, ASCII.cr, 0x0C, 0x1B: continue
            default: controls += 1
            }
        }
        return controls * 100 > bytes.count
    }
}
