/// Lenient base64 decoding (RFC 2045 §6.8) as mail needs it: whitespace and
/// any byte outside the alphabet are ignored, padding may be missing, and a
/// `=` ends a quantum so concatenated base64 blocks decode correctly.
enum Base64 {
    /// The bits read but not yet output: what a decoder carries from one piece of its
    /// input to the next (`TransferDecoder`). A fresh state starts a decoding.
    struct State: Sendable, Equatable {
        var accumulator: UInt32 = 0
        var bitCount: UInt32 = 0
    }

    /// Decodes `bytes`, stopping once `limit` output bytes are produced.
    static func decode(_ bytes: ArraySlice<UInt8>, limit: Int = .max) -> [UInt8] {
        var state = State()
        return decode(bytes, continuing: &state, limit: limit)
    }

    /// Decodes the next piece of a longer input whose earlier pieces left `state`: the
    /// pieces' outputs joined are the output of the whole input, wherever it was cut.
    static func decode(_ bytes: ArraySlice<UInt8>, continuing state: inout State, limit: Int = .max) -> [UInt8] {
        // The bits carried in add at most one byte to the 3 per 4 input bytes.
        let capacity = min(limit, bytes.count / 4 * 3 + 4)
        return [UInt8](unsafeUninitializedCapacity: capacity) { output, initialized in
            // Raw buffers for the input and the table: attachments are megabytes, and a
            // static array read per byte pays a lazy-initialisation and bounds check.
            initialized = bytes.withUnsafeBufferPointer { input in
                table.withUnsafeBufferPointer { table in
                    decode(input, into: output, capacity: capacity, table: table, state: &state)
                }
            }
        }
    }

    private static func decode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>,
                               capacity: Int, table: UnsafeBufferPointer<UInt8>, state: inout State) -> Int {
        var count = 0
        var accumulator = state.accumulator
        var bitCount = state.bitCount
        defer { state = State(accumulator: accumulator, bitCount: bitCount) }
        for byte in input {
            let value = table[Int(byte)]
            if value < 64 {
                accumulator = (accumulator << 6) | UInt32(value)
                bitCount += 6
                if bitCount >= 8 {
                    bitCount -= 8
                    guard count < capacity else { break }
                    output[count] = UInt8(truncatingIfNeeded: accumulator >> bitCount)
                    count += 1
                }
            } else if value == padding {
                accumulator = 0
                bitCount = 0
            }
        }
        return count
    }

    /// The number of bytes `decode` would produce, without producing them.
    static func decodedCount(_ bytes: ArraySlice<UInt8>) -> Int {
        // The table's buffer taken once: looked up through the array, it was a quarter slower.
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { input in
                var count = 0
                var sextets = 0
                for byte in input {
                    let value = table[Int(byte)]
                    if value < 64 {
                        sextets += 1
                    } else if value == padding {
                        count += sextets * 6 / 8
                        sextets = 0
                    }
                }
                return count + sextets * 6 / 8
            }
        }
    }

    private static let padding: UInt8 = 65

    /// 0-63 for alphabet bytes, `padding` for `=`, 64 for everything else.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 64, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        table[Int(ASCII.equals)] = padding
        return table
    }()
}
