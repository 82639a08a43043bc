import Foundation
import Testing
@testable import MailCore

@Suite("Base64 and quoted-printable decoding")
struct TransferEncodingTests {
    private static func base64(_ text: String) -> String {
        String(decoding: Base64.decode(Array(text.utf8)[...]), as: UTF8.self)
    }

    private static func qp(_ text: String) -> String {
        String(decoding: QuotedPrintable.decode(Array(text.utf8)[...]), as: UTF8.self)
    }

    @Test("base64 ignores whitespace and junk and tolerates missing padding", arguments: [
        ("SGVsbG8gd29ybGQ=", "Hello world"),
        ("SGVs\r\nbG8g\r\n d29y bGQ=", "Hello world"),
        ("SGVsbG8gd29ybGQ", "Hello world"),
        ("SGV*sbG8!gd29y#bGQ=", "Hello world"),
        ("SGk=SGk=", "HiHi"),
        ("", ""),
        ("====", ""),
    ])
    func base64Decoding(encoded: String, decoded: String) {
        #expect(Self.base64(encoded) == decoded)
        #expect(Base64.decodedCount(Array(encoded.utf8)[...]) == decoded.utf8.count)
    }

    @Test("base64's size count agrees with decoding for every byte value and for random mixes of blocks, padding and junk")
    func base64CountAgreesWithDecoding() {
        for value in 0...255 {
            let input = [UInt8](repeating: UInt8(value), count: 8)[...]
            #expect(Base64.decodedCount(input) == Base64.decode(input).count, "byte \(value)")
        }
        var generator = SystemRandomNumberGenerator()
        let pieces = Array("QUJDRA==AbZz09+/=\r\n \t*\u{00}".utf8) + [0xC3, 0xA9, 0xFF]
        for _ in 0..<2_000 {
            let input = (0..<Int.random(in: 0...64, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }[...]
            #expect(Base64.decodedCount(input) == Base64.decode(input).count, "\(input)")
        }
    }

    @Test("base64 stops at the output limit")
    func base64Limit() {
        #expect(Base64.decode(Array("SGVsbG8gd29ybGQ=".utf8)[...], limit: 5) == Array("Hello".utf8))
    }

    @Test("quoted-printable: escapes in either case, soft breaks, trailing blanks", arguments: [
        ("caf=C3=A9", "café"),
        ("caf=c3=a9", "café"),
        ("long =\r\nline", "long line"),
        ("long =  \nline", "long line"),
        ("trailing   \r\nnext", "trailing\r\nnext"),
        ("a = b =ZZ =4", "a = b =ZZ =4"),
        ("end=", "end"),
        ("tab\tinside", "tab\tinside"),
    ])
    func quotedPrintable(encoded: String, decoded: String) {
        #expect(Self.qp(encoded) == decoded)
    }

    @Test("7bit, 8bit, binary and unknown encodings pass through")
    func identity() {
        let bytes: [UInt8] = [0, 1, 0xFF, 0x0D, 0x0A]
        for encoding in ["7bit", "8bit", "binary", "x-unknown"] {
            #expect(TransferEncoding.decode(bytes[...], encoding: encoding) == bytes)
        }
        #expect(TransferEncoding.name(" Base64 (comment)") == "base64")
        #expect(TransferEncoding.name(nil) == "7bit")
    }
}
