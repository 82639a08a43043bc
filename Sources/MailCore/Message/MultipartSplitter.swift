/// Finds the body parts of a multipart entity (RFC 2046 §5.1.1) by searching
/// the raw bytes for delimiter lines: `--boundary` at the start of a line,
/// then the end of the line, a blank, or `--` (the close delimiter); what
/// follows a blank or the `--` is ignored, as the RFC's note to implementors
/// allows. Requiring that much after the boundary keeps an inner boundary
/// that extends the outer one (`b` and `b-1`, sent by real mailers) apart.
/// Lenient: a missing close delimiter ends the last part at the end of the
/// body; the preamble and the epilogue are ignored.
enum MultipartSplitter {
    static let maxParts = 10_000

    /// The byte ranges of the parts, each without the line break that belongs
    /// to the following delimiter. Empty when no delimiter was found.
    static func parts(of body: ArraySlice<UInt8>, boundary: String) -> [Range<Int>] {
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [Range<Int>] = []
        var partStart: Int?
        var lineStart = body.startIndex
        while lineStart < body.endIndex, parts.count < maxParts {
            let line = ByteSearch.line(startingAt: lineStart, in: body)
            if body[lineStart] == ASCII.minus,
               let isClose = delimiterKind(body, line: lineStart..<line.contentEnd, delimiter: delimiter) {
                if let start = partStart {
                    parts.append(start..<contentEnd(before: lineStart, from: start, in: body))
                }
                if isClose { return parts }
                partStart = line.next
            }
            lineStart = line.next
        }
        if let start = partStart, parts.count < maxParts {
            parts.append(start..<body.endIndex)
        }
        return parts
    }

    /// nil when the line is not a delimiter; else whether it is the close delimiter.
    private static func delimiterKind(_ body: ArraySlice<UInt8>, line: Range<Int>, delimiter: [UInt8]) -> Bool? {
        guard line.count >= delimiter.count,
              ByteSearch.hasPrefix(delimiter, in: body, at: line.lowerBound) else { return nil }
        let rest = line.lowerBound + delimiter.count
        if rest == line.upperBound || ASCII.isBlank(body[rest]) { return false }
        if rest + 1 < line.upperBound, body[rest] == ASCII.minus, body[rest + 1] == ASCII.minus { return true }
        return nil
    }

    /// The end of a part: just before the CR LF or LF that precedes the delimiter line.
    private static func contentEnd(before delimiterLine: Int, from start: Int, in body: ArraySlice<UInt8>) -> Int {
        var end = delimiterLine
        if end > start, body[end - 1] == ASCII.lf { end -= 1 }
        if end > start, body[end - 1] == ASCII.cr { end -= 1 }
        return end
    }
}
