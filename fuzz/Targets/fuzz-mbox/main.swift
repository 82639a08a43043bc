import FuzzDriver
import MailCore

/// The mbox splitter (mboxo/mboxrd `From ` lines, `>From` un-escaping, mboxcl2
/// Content-Length, a leading BOM): messages are in order, inside the file, never overlapping.
fuzz { bytes in
    _ = MboxSplitter.looksLikeMbox(Array(bytes.prefix(1024)))
    let ranges = MboxSplitter.messageRanges(in: bytes)
    var end = 0
    for range in ranges {
        precondition(range.lowerBound >= end && range.upperBound <= bytes.count, "ranges out of order")
        end = range.upperBound
    }
    let messages = MboxSplitter.split(bytes)
    precondition(messages.count == ranges.count, "split and ranges disagree")
    precondition(messages.reduce(0) { $0 + $1.count } <= bytes.count, "messages larger than the file")
}
