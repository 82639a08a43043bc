/// Quoted-printable encoding (RFC 2045 §6.7) of text lines, for a body we
/// labelled ourselves whose lines are too long to send as they are.
/// Output lines are at most 76 characters; `=`, 8-bit and control bytes are
/// escaped, and a blank at the end of a line too (rule 3).
enum QuotedPrintableEncoder {
    static let maxLineLength = 76

    static func encode(_ lines: [ArraySlice<UInt8>]) -> [UInt8] {
        var output: [UInt8] = []
        for line in lines {
            encodeLine(line, into: &output)
            output.append(contentsOf: [ASCII.cr, ASCII.lf])
        }
        return output
    }

    private static func encodeLine(_ line: ArraySlice<UInt8>, into output: inout [UInt8]) {
        var column = 0
        for index in line.indices {
            let byte = line[index]
            let isLast = index == line.index(before: line.endIndex)
            let piece = isLiteral(byte, atEnd: isLast) ? [byte] : escape(byte)
            // Leave room for the soft break's `=` unless this piece ends the line.
            let room = isLast ? maxLineLength : maxLineLength - 1
            if column + piece.count > room {
                output.append(contentsOf: [ASCII.equals, ASCII.cr, ASCII.lf])
                column = 0
            }
            output.append(contentsOf: piece)
            column += piece.count
        }
    }

    private static func isLiteral(_ byte: UInt8, atEnd: Bool) -> Bool {
        if ASCII.isBlank(byte) { return !atEnd }
        return byte > ASCII.space && byte < 0x7F && byte != ASCII.equals
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func escape(_ byte: UInt8) -> [UInt8] {
        [ASCII.equals, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
    }
}
