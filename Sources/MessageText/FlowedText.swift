/// RFC 3676 `format=flowed` text joined into its paragraphs: a line ending in a space is
/// continued by the next line of the same quote depth (§4.2), a leading space is
/// space-stuffing (§4.4), `-- ` is the signature separator and never flowed (§4.3), and with
/// `DelSp=yes` the space ending a flowed line is a line-break artifact, deleted (§4.1).
/// Each paragraph comes out as one line, its quote depth written back as `>`s.
///
///     "Dear Zo\u{EB} \nLaurent,\n> > quoted \n> > text\n"  ->  "Dear Zoë Laurent,\n>> quoted text\n"
enum FlowedText {
    static func joined(_ text: String, deleteSpace: Bool) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var pending = [UInt8]()
        var pendingDepth = -1
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if index == lines.count - 1, line.isEmpty { break }
            var depth = 0
            var start = line.startIndex
            while start < line.endIndex, line[start] == UInt8(ascii: ">") {
                depth += 1
                start = line.index(after: start)
            }
            if start < line.endIndex, line[start] == UInt8(ascii: " ") { start = line.index(after: start) }
            var content = line[start...]
            let isSignature = content.elementsEqual("-- ".utf8)
            let isFlowed = !isSignature && content.last == UInt8(ascii: " ")
            if isFlowed, deleteSpace { content = content.dropLast() }
            if depth != pendingDepth, pendingDepth >= 0 {
                flush(&pending, depth: pendingDepth, into: &output)
            }
            pendingDepth = depth
            pending.append(contentsOf: content)
            if !isFlowed {
                flush(&pending, depth: depth, into: &output)
                pendingDepth = -1
            }
        }
        if pendingDepth >= 0 { flush(&pending, depth: pendingDepth, into: &output) }
        return output
    }

    private static func flush(_ pending: inout [UInt8], depth: Int, into output: inout String) {
        if depth > 0 {
            output += String(repeating: ">", count: depth)
            if !pending.isEmpty { output += " " }
        }
        output += String(decoding: pending, as: UTF8.self)
        output += "\n"
        pending.removeAll(keepingCapacity: true)
    }
}
