/// Recognises well-formed UTF-8 sequences (RFC 3629) in raw bytes, to tell
/// real UTF-8 from mislabelled 8-bit text and to cut text on a character boundary.
enum UTF8Sequence {
    /// The length of the well-formed sequence at `index` (1 for ASCII), or 0
    /// when the bytes there do not form one.
    static func length(of bytes: ArraySlice<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let (length, lowest, highest): (Int, UInt8, UInt8)
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (length, lowest, highest) = (2, 0x80, 0xBF)
        case 0xE0: (length, lowest, highest) = (3, 0xA0, 0xBF)
        case 0xED: (length, lowest, highest) = (3, 0x80, 0x9F)
        case 0xE1...0xEF: (length, lowest, highest) = (3, 0x80, 0xBF)
        case 0xF0: (length, lowest, highest) = (4, 0x90, 0xBF)
        case 0xF4: (length, lowest, highest) = (4, 0x80, 0x8F)
        case 0xF1...0xF3: (length, lowest, highest) = (4, 0x80, 0xBF)
        default: return 0
        }
        guard bytes.endIndex - index >= length else { return 0 }
        let second = bytes[index + 1]
        guard second >= lowest, second <= highest else { return 0 }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }
}
