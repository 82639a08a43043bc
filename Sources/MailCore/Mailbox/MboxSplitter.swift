/// Splits an mbox file (mboxo or mboxrd, RFC 4155) into its messages.
///
/// A message starts after a `From ` line that opens the file or follows a blank line
/// (`\n` or `\r\n` alone); the From_ line itself is not part of the message, nor is the
/// one blank line that separates a message from the next From_ line (or ends the file).
///
/// The blank-line rule is a choice between two failure modes. Splitting at every line
/// that starts with `From ` cuts a message in two wherever its writer forgot to escape
/// one in a body (mboxcl writers never do); requiring the blank line instead merges two
/// messages when a writer leaves it out, which RFC 4155-conforming writers never do.
/// Losing no text beats inventing a message, so the blank line is required. Text before
/// the first From_ line that is not blank (a lone message saved without one) is kept as
/// a message.
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
        var ranges: [Range<Int>] = []
        var messageStart = 0
        var hasFromLine = false
        forEachLineStart(in: bytes[...]) { lineStart in
            guard startsWithFrom(bytes[...], at: lineStart),
                  let end = blankLineStart(before: lineStart, in: bytes[...]) else { return }
            if hasFromLine || !isBlank(bytes[messageStart..<end]) {
                ranges.append(messageStart..<max(messageStart, end))
            }
            messageStart = nextLineStart(in: bytes[...], after: lineStart)
            hasFromLine = true
        }
        let end = endWithoutFinalBlankLine(bytes, from: messageStart)
        if hasFromLine || !isBlank(bytes[messageStart..<end]) {
            ranges.append(messageStart..<end)
        }
        return ranges
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
