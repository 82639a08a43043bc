#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Converts text in a MIME charset to a Swift `String`.
///
/// Never fails: an unknown charset falls back to UTF-8 when the bytes are valid
/// UTF-8, else to Windows-1252 (the Latin-1 superset mail labelled "iso-8859-1"
/// really uses); bytes a charset cannot convert become U+FFFD.
public enum Charset {
    public static func decode(_ bytes: [UInt8], charset: String) -> String {
        decode(bytes[...], charset: charset)
    }

    static func decode(_ bytes: ArraySlice<UInt8>, charset: String) -> String {
        switch canonicalName(charset) {
        case "utf-8":
            return utf8Repaired(bytes)
        case "auto":
            return utf8OrWindows1252(bytes)
        case "windows-1252":
            return windows1252(bytes)
        case let name:
            return iconvDecode(bytes, from: name) ?? utf8OrWindows1252(bytes)
        }
    }

    /// UTF-8 where it is well-formed, and each other byte as Windows-1252: what raw 8-bit
    /// header text and unlabelled bodies most likely are. Byte by byte, so one stray
    /// Latin-1 byte in a UTF-8 name does not turn the whole name into mojibake, and text
    /// that is all Latin-1 reads as Latin-1.
    static func utf8OrWindows1252(_ bytes: ArraySlice<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count * 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let length = UTF8Sequence.length(of: bytes, at: index)
            if length > 0 {
                utf8.append(contentsOf: bytes[index..<(index + length)])
                index += length
            } else {
                utf8.append(contentsOf: windows1252(bytes[index...index]).utf8)
                index += 1
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Text labelled UTF-8: as UTF-8 when valid; when invalid, as Windows-1252
    /// if it holds fewer well-formed multibyte sequences than stray 8-bit
    /// bytes (mislabelled Latin-1, common in old mail), else as UTF-8 with
    /// U+FFFD for the bad bytes.
    static func utf8Repaired(_ bytes: ArraySlice<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        // A value cut inside its last character (an RFC 2231 file name split by a mailer)
        // keeps everything before the cut.
        if let cut = incompleteTail(bytes), let text = String(validating: bytes[..<cut], as: UTF8.self) { return text }
        var wellFormed = 0
        var stray = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let length = UTF8Sequence.length(of: bytes, at: index)
            if length > 1 { wellFormed += 1 } else if bytes[index] >= 0x80 { stray += 1 }
            index += max(length, 1)
        }
        return wellFormed >= stray ? String(decoding: bytes, as: UTF8.self) : windows1252(bytes)
    }

    /// Where a UTF-8 sequence begins that the end of `bytes` cuts short: a lead byte in the
    /// last three bytes followed only by continuation bytes, fewer than it needs.
    static func incompleteTail(_ bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.endIndex
        while index > bytes.startIndex, bytes.endIndex - index < 3 {
            index -= 1
            let byte = bytes[index]
            if byte & 0xC0 == 0x80 { continue }
            let needed = switch byte {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
            return needed > bytes.endIndex - index ? index : nil
        }
        return nil
    }

    /// The lower-cased charset name with quotes, blanks and an RFC 2231
    /// `*language` suffix removed, and common aliases resolved. "auto" means
    /// "guess between UTF-8 and Windows-1252".
    static func canonicalName(_ raw: String) -> String {
        let unwanted: Set<Character> = [" ", "\t", "\"", "'"]
        var name = Substring(raw.lowercased())
        if let star = name.firstIndex(of: "*") { name = name[..<star] }
        name = name.drop(while: { unwanted.contains($0) })
        while let last = name.last, unwanted.contains(last) { name = name.dropLast() }
        switch name {
        case "utf-8", "utf8", "unicode-1-1-utf-8", "x-unicode20utf8":
            return "utf-8"
        case "", "us-ascii", "ascii", "ansi_x3.4-1968", "us", "iso646-us", "default", "unknown",
             "unknown-8bit", "x-unknown", "x-user-defined", "7bit", "8bit", "charset", "none":
            return "auto"
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "iso-latin-1",
             "windows-1252", "cp1252", "cp-1252", "x-cp1252", "win-1252", "ibm819", "cp819":
            return "windows-1252"
        case "ks_c_5601-1987", "ks_c_5601", "ksc5601", "euc-kr", "x-windows-949":
            return "cp949"
        case "gb2312", "gbk", "x-gbk", "cn-gb", "euc-cn", "x-euc-cn", "gb_2312-80":
            return "gb18030"
        case "iso-8859-8-i", "iso-8859-8-e":
            return "iso-8859-8"
        case "x-sjis", "shift-jis", "ms_kanji", "csshiftjis", "windows-31j":
            return "cp932"
        case "x-mac-roman", "macintosh", "mac":
            return "macintosh"
        default:
            return String(name)
        }
    }

    /// Windows-1252 decoding; the five bytes it leaves undefined map to the
    /// C1 control of the same value, as in Latin-1.
    static func windows1252(_ bytes: ArraySlice<UInt8>) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            if byte < 0x80 {
                utf8.append(byte)
            } else {
                let value = byte <= 0x9F ? windows1252High[Int(byte - 0x80)] : UInt32(byte)
                appendUTF8(of: value, to: &utf8)
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Appends the UTF-8 form of a code point below U+10000.
    private static func appendUTF8(of value: UInt32, to utf8: inout [UInt8]) {
        if value < 0x800 {
            utf8.append(UInt8(0xC0 | value >> 6))
        } else {
            utf8.append(UInt8(0xE0 | value >> 12))
            utf8.append(UInt8(0x80 | (value >> 6) & 0x3F))
        }
        utf8.append(UInt8(0x80 | value & 0x3F))
    }

    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
