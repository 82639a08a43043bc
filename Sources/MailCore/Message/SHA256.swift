/// SHA-256 (FIPS 180-4), for message fingerprints: deciding that two messages are the
/// same must not be open to a crafted collision (a weaker digest would let a sender hide
/// one message behind another). Pure Swift, so MailCore stays free of system libraries.
public enum SHA256 {
    public static func hex(of bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest(of: bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whole 64-byte blocks are read straight from the caller's storage (a copy only for a
    /// sequence that has none), the schedule lives on the stack: fingerprints hash every
    /// stored message's header, and the byte-at-a-time version showed in a sync's profile.
    public static func digest(of bytes: some Sequence<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable(digest(ofBuffer:)) { return digest }
        return Array(bytes).withUnsafeBufferPointer(digest(ofBuffer:))
    }

    private static func digest(ofBuffer message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var state = initialState
        let whole = message.count - message.count % 64
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            for offset in stride(from: 0, to: whole, by: 64) {
                compress(&state, UnsafeBufferPointer(rebasing: message[offset..<offset + 64]), schedule)
            }
            // Padding: 0x80, zeros up to 56 mod 64, then the length in bits, big-endian.
            var tail = Array(UnsafeBufferPointer(rebasing: message[whole...]))
            tail.append(0x80)
            tail += repeatElement(0, count: (tail.count <= 56 ? 56 : 120) - tail.count)
            let bits = UInt64(message.count) &* 8
            for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
            tail.withUnsafeBufferPointer { padded in
                for offset in stride(from: 0, to: padded.count, by: 64) {
                    compress(&state, UnsafeBufferPointer(rebasing: padded[offset..<offset + 64]), schedule)
                }
            }
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    private static func compress(_ state: inout [UInt32], _ block: UnsafeBufferPointer<UInt8>,
                                 _ w: UnsafeMutableBufferPointer<UInt32>) {
        for i in 0..<16 {
            w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16
                | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
        }
        for i in 16..<64 {
            let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        roundConstants.withUnsafeBufferPointer { k in
            for i in 0..<64 {
                let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
                let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value >> count | value << (32 - count)
    }

    private static let initialState: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]

    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}
