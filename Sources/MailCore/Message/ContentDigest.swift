/// A 128-bit non-cryptographic digest (two FNV-1a 64 lanes with different offsets and
/// the length), used to recognise the same Message-ID-less message on re-import. Not a
/// security boundary: it only decides "already stored".
public enum ContentDigest {
    public static func hex(of bytes: [UInt8]) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x8422_2325_cbf2_9ce4
        let prime: UInt64 = 0x0000_0100_0000_01b3
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* prime
            b = (b &* prime) ^ UInt64(byte)
        }
        return hex64(a) + hex64(b) + String(bytes.count, radix: 16)
    }

    private static func hex64(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
