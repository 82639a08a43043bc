/// Splits an mbox file (mboxo, mboxrd, mboxcl2; RFC 4155) into its messages, as mutt and
/// Python's `mailbox.mbox` do: every line that starts with `From ` opens a message, whether
/// or not a blank line comes before it (writers that leave the blank line out are common;
/// a body line starting with `From ` is escaped as `>From ` by every mbox writer). The
/// From_ line is not part of the message, nor is the one blank line before the next
/// From_ line or at the end of the file. A `Content-Length:` header (mboxcl2) is honoured
/// when it is consistent, i.e. its body ends at the end of the file or right before a
/// From_ line (after one blank line at most): the body may then hold unescaped From lines.
/// A UTF-8 byte order mark before the first From_ line is skipped. Text before the first
/// From_ line that is not blank (a lone message saved without one) is kept as a message.
///
/// `unescape` applies the mboxrd rule, removing one `>` from lines matching `^>+From `.
/// For mboxo that also undoes its `From ` → `>From ` escaping; a body line that really
/// began with `>From ` cannot be told apart there, and loses its `>`.
public enum MboxSplitter {
    /// The messages, unescaped, in file order.
    public static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        messageRanges(in: bytes).map { unescape(bytes[$0]) }
    }

    /// Where each message lies in `bytes`, still escaped.
    public static func messageRanges(in bytes: [UInt8]) -> [Range<Int>] {
        let first = byteOrderMarkLength(bytes)
        var ranges: [Range<Int>] = []
        var messageStart: Int?
        var ignoredBefore = first
        forEachLineStart(in: bytes[first...]) { lineStart in
            guard lineStart >= ignoredBefore, startsWithFrom(bytes[...], at: lineStart) else { return }
            let end = blankLineStart(before: lineStart, in: bytes[first...]) ?? lineStart
            if let start = messageStart {
                ranges.append(start..<max(start, end))
            } else if !isBlank(bytes[first..<end]) {
                ranges.append(first..<end)
            }
            let contentStart = nextLineStart(in: bytes[...], after: lineStart)
            messageStart = contentStart
            ignoredBefore = contentLengthEnd(bytes, messageStart: contentStart) ?? contentStart
        }
        let start = messageStart ?? first
        let end = endWithoutFinalBlankLine(bytes, from: start)
        if messageStart != nil || !isBlank(bytes[start..<end]) {
            ranges.append(start..<end)
        }
        return ranges
    }

    /// True when `bytes` starts (after a byte order mark) like an mbox file.
    public static func looksLikeMbox(_ head: [UInt8]) -> Bool {
        startsWithFrom(head[...], at: byteOrderMarkLength(head))
    }

    /// mboxcl2: where the body that `Content-Length:` announces ends, when that is the
    /// file's end or the start of a From_ line (one blank line between allowed); nil when
    /// there is no such header or it does not fit, and From_ lines split as usual.
    static func contentLengthEnd(_ bytes: [UInt8], messageStart: Int) -> Int? {
        let header = HeaderBlock.parse(bytes[messageStart...])
        guard let text = header.value("content-length"),
              let length = Int(text.filter { $0 != " " && $0 != "\t" }), length >= 0,
              header.bodyStart <= bytes.count - length else { return nil }
        let end = header.bodyStart + length
        var next = end
        for separator in [[UInt8(ascii: "\n")], [UInt8(ascii: "\r"), UInt8(ascii: "\n")]]
        where bytes[end...].starts(with: separator) {
            next = end + separator.count
        }
        guard next == bytes.count || startsWithFrom(bytes[...], at: next) || end == bytes.count else { return nil }
        return next
    }

    private static func byteOrderMarkLength(_ bytes: [UInt8]) -> Int {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Removes one `>` from each line matching `^>+From ` (mboxrd).
    public static func unescape(_ message: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(message.count)
        var copiedUpTo = message.startIndex
        forEachLineStart(in: message) { lineStart in
            var position = lineStart
            while position < message.endIndex, message[position] == UInt8(ascii: ">") { position += 1 }
            guard position > lineStart, startsWithFrom(message, at: position) else { return }
            output.append(contentsOf: message[copiedUpTo..<lineStart])
            copiedUpTo = lineStart + 1
        }
        output.append(contentsOf: message[copiedUpTo...])
        return output
    }
}
