/// The base64 of RFC 3501 §5.1.3: `,` instead of `/`, and no `=` padding.
enum ModifiedBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,".utf8)

    private static let valueOfByte: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = Int8(value) }
        return table
    }()

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[Int((buffer >> UInt32(bits)) & 0x3F)])
            }
        }
        if bits > 0 {
            output.append(alphabet[Int((buffer << UInt32(6 - bits)) & 0x3F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Nil on a character outside the alphabet or on leftover bits that are not zero
    /// (or a whole unused character), which no encoder produces.
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in text {
            let value = valueOfByte[Int(byte)]
            guard value >= 0 else { return nil }
            buffer = (buffer << 6 | UInt32(value)) & 0xFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        let leftover = buffer & ((1 << UInt32(bits)) - 1)
        guard bits < 6, leftover == 0 else { return nil }
        return output
    }
}
