#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fast searches in byte buffers, used to find line ends and MIME boundaries
/// without walking byte by byte in Swift.
enum ByteSearch {
    /// Index of the first `byte` in `bytes[from...]`, or nil.
    static func firstIndex(of byte: UInt8, in bytes: ArraySlice<UInt8>, from: Int) -> Int? {
        guard from < bytes.endIndex else { return nil }
        let start = max(from, bytes.startIndex)
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            let offset = start - bytes.startIndex
            guard let hit = memchr(base + offset, Int32(byte), buffer.count - offset) else { return nil }
            let distance = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            return bytes.startIndex + distance
        }
    }

    /// `input` with CR LF and a lone CR turned into LF, or nil when it has no CR. The runs
    /// between CRs are copied whole: this runs over every text body a sync or an import
    /// stores, where a loop byte by byte took a tenth of the parsing.
    static func lineEndsAsLF(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let base = input.baseAddress, memchr(base, Int32(ASCII.cr), input.count) != nil else { return nil }
        return [UInt8](unsafeUninitializedCapacity: input.count) { output, initialized in
            var (read, written) = (0, 0)
            while read < input.count {
                let run = memchr(base + read, Int32(ASCII.cr), input.count - read)
                    .map { UnsafeRawPointer($0) - UnsafeRawPointer(base + read) } ?? input.count - read
                (output.baseAddress! + written).initialize(from: base + read, count: run)
                (read, written) = (read + run, written + run)
                guard read < input.count else { break }
                output[written] = ASCII.lf
                written += 1
                read += input.count - read > 1 && input[read + 1] == ASCII.lf ? 2 : 1
            }
            initialized = written
        }
    }

    /// The line starting at `start`: where its content ends (before CR LF or LF)
    /// and where the next line starts. A line without LF runs to the end.
    static func line(startingAt start: Int, in bytes: ArraySlice<UInt8>) -> (contentEnd: Int, next: Int) {
        guard let lf = firstIndex(of: ASCII.lf, in: bytes, from: start) else {
            var end = bytes.endIndex
            if end > start, bytes[end - 1] == ASCII.cr { end -= 1 }
            return (end, bytes.endIndex)
        }
        let contentEnd = lf > start && bytes[lf - 1] == ASCII.cr ? lf - 1 : lf
        return (contentEnd, lf + 1)
    }

    /// True when `bytes[at...]` begins with `prefix`.
    static func hasPrefix(_ prefix: [UInt8], in bytes: ArraySlice<UInt8>, at: Int) -> Bool {
        guard at >= bytes.startIndex, bytes.endIndex - at >= prefix.count else { return false }
        var index = at
        for byte in prefix {
            if bytes[index] != byte { return false }
            index += 1
        }
        return true
    }

    /// True when every byte of `bytes[range]` is WSP, CR or LF.
    static func isBlank(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>) -> Bool {
        for index in range where !ASCII.isWhitespace(bytes[index]) { return false }
        return true
    }

    /// `range` without leading and trailing whitespace.
    static func trimmed(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, ASCII.isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, ASCII.isWhitespace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }
}
