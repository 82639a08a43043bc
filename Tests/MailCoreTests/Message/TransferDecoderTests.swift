import Foundation
import Testing
@testable import MailCore

/// The decoder a download feeds piece by piece must give the bytes the whole-input decoder
/// gives (the store path serves those), wherever the network cut the input.
@Suite("Transfer decoding by pieces")
struct TransferDecoderTests {
    static func whole(_ input: [UInt8], _ encoding: String) -> [UInt8] {
        MessageParser.decodeTransferEncoding(input, encoding: encoding)
    }

    static func pieces(_ input: [UInt8], _ encoding: String, cutAt cuts: [Int]) -> [UInt8] {
        var decoder = TransferDecoder(encoding: encoding)
        var output: [UInt8] = []
        var start = 0
        for cut in cuts + [input.count] {
            output += decoder.decode(Array(input[start..<cut]))
            start = cut
        }
        return output + decoder.finish()
    }

    static let samples: [(String, String)] = [
        ("SGVsbG8gd29ybGQ=", "base64"),
        ("SGVs\r\nbG8g\r\n d29y bGQ=", "base64"),
        ("SGk=SGk=ab", "base64"),
        ("SGV*sbG8!gd29y#bGQ", "base64"),
        ("====", "base64"),
        ("caf=C3=A9 =3D=3d ok\r\nsoft=\r\nbreak=  \r\nend  \r\nx", "quoted-printable"),
        ("trail \t\r\n=\nline=4\n=ZZ=4G= x=\r", "quoted-printable"),
        ("=A=A=A=A  =", "quoted-printable"),
        ("  \t ", "quoted-printable"),
        ("begin 644 a.txt\r\n62&5L;&\\L('5U96YC;V1E9\"!W;W)L9   \r\n`\r\nend\r\n", "x-uuencode"),
        ("no begin line, so not uuencoded", "x-uuencode"),
        ("plain\r\nbytes=41", "7bit"),
        ("", "base64"),
    ]

    @Test("one cut at every position gives the whole-input bytes", arguments: samples)
    func everySingleCut(text: String, encoding: String) {
        let input = Array(text.utf8)
        let expected = Self.whole(input, encoding)
        for cut in 0...input.count {
            #expect(Self.pieces(input, encoding, cutAt: [cut]) == expected, "cut at \(cut) of \(text.debugDescription)")
        }
    }

    @Test("two cuts at every pair of positions give the whole-input bytes", arguments: samples)
    func everyPairOfCuts(text: String, encoding: String) {
        let input = Array(text.utf8)
        let expected = Self.whole(input, encoding)
        for first in 0...input.count {
            for second in first...input.count {
                #expect(Self.pieces(input, encoding, cutAt: [first, second]) == expected, "cuts \(first), \(second)")
            }
        }
    }

    @Test("one byte at a time gives the whole-input bytes", arguments: samples)
    func byteByByte(text: String, encoding: String) {
        let input = Array(text.utf8)
        #expect(Self.pieces(input, encoding, cutAt: Array(0...input.count)) == Self.whole(input, encoding))
    }

    /// Random inputs over the bytes that matter to each decoder, cut at random places:
    /// a fuzz run in miniature, reproducible by its seed.
    @Test("random inputs cut at random places", arguments: ["base64", "quoted-printable"])
    func randomInputs(encoding: String) {
        var random = SplitMix(seed: 42)
        let alphabet = Array((encoding == "base64" ? "AZaz09+/=\r\n *" : "=AF3d9g \t\r\nx").utf8)
        for _ in 0..<2000 {
            let input = (0..<random.next(upTo: 40)).map { _ in alphabet[random.next(upTo: alphabet.count)] }
            let cuts = (0..<random.next(upTo: 5)).map { _ in random.next(upTo: input.count + 1) }.sorted()
            #expect(Self.pieces(input, encoding, cutAt: cuts) == Self.whole(input, encoding),
                    "\(String(decoding: input, as: UTF8.self).debugDescription) cut at \(cuts)")
        }
    }

    @Test("200 KB of base64 in network-sized pieces decodes like the whole")
    func largeBase64() {
        var random = SplitMix(seed: 7)
        let content = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: random.next(upTo: 256)) }
        let encoded = Array(content.base64Lines.utf8)
        let cuts = Array(stride(from: 16_377, to: encoded.count, by: 16_384))
        #expect(Self.pieces(encoded, "base64", cutAt: cuts) == content)
    }

    @Test("quoted-printable with no place to cut is still decoded once the carry is large")
    func boundedCarry() {
        var decoder = TransferDecoder(encoding: "quoted-printable")
        let piece = Array(String(repeating: "=A", count: 1 << 16).utf8)
        var decoded = 0
        for _ in 0..<20 { decoded += decoder.decode(piece).count }
        #expect(decoded > 0, "the carry never grows past its bound")
    }
}

/// A small deterministic generator for the tests above.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(upTo bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return bound <= 0 ? 0 : Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

extension Array where Element == UInt8 {
    /// Base64 in 76-column CRLF lines, as mailers write attachments.
    fileprivate var base64Lines: String {
        let encoded = Data(self).base64EncodedString()
        return stride(from: 0, to: encoded.count, by: 76).map { start in
            let from = encoded.index(encoded.startIndex, offsetBy: start)
            return String(encoded[from..<(encoded.index(from, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex)])
        }.joined(separator: "\r\n")
    }
}
