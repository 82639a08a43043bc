import Glibc

/// Line scanning for `MboxSplitter`: `memchr` finds the line ends, so a 100 MB mailbox
/// is scanned without touching each byte from Swift.
extension MboxSplitter {
    /// Calls `body` with the index of every line start of `bytes`, in order.
    static func forEachLineStart(in bytes: ArraySlice<UInt8>, _ body: (Int) -> Void) {
        guard !bytes.isEmpty else { return }
        body(bytes.startIndex)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count,
                  let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), buffer.count - offset) {
                let newline = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                offset = newline + 1
                if offset < buffer.count { body(bytes.startIndex + offset) }
            }
        }
    }

    static func nextLineStart(in bytes: ArraySlice<UInt8>, after index: Int) -> Int {
        guard let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) else { return bytes.endIndex }
        return newline + 1
    }

    static func startsWithFrom(_ bytes: ArraySlice<UInt8>, at index: Int) -> Bool {
        let marker: [UInt8] = Array("From ".utf8)
        guard bytes.endIndex - index >= marker.count else { return false }
        return bytes[index..<(index + marker.count)].elementsEqual(marker)
    }

    /// Where the blank line just before `lineStart` begins, or nil if that line is not
    /// blank. At the very start there is no line before: the result is `lineStart`.
    static func blankLineStart(before lineStart: Int, in bytes: ArraySlice<UInt8>) -> Int? {
        let start = bytes.startIndex
        guard lineStart > start else { return lineStart }
        let newline = lineStart - 1
        if newline == start || bytes[newline - 1] == UInt8(ascii: "\n") { return newline }
        if bytes[newline - 1] == UInt8(ascii: "\r"),
           newline - 1 == start || bytes[newline - 2] == UInt8(ascii: "\n") {
            return newline - 1
        }
        return nil
    }

    /// The end of the last message: the file's end less one final blank line, if any.
    static func endWithoutFinalBlankLine(_ bytes: [UInt8], from start: Int) -> Int {
        let end = bytes.count
        guard end > start, bytes[end - 1] == UInt8(ascii: "\n"),
              let blank = blankLineStart(before: end, in: bytes[...]), blank >= start else { return end }
        return blank
    }

    static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }
    }
}
