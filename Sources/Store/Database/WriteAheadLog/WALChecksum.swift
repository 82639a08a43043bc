/// SQLite's running checksum over a write-ahead log and its index: two 32-bit sums over
/// the bytes read as 32-bit words, eight bytes at a time
/// (https://www.sqlite.org/fileformat2.html#walformat). The WAL's header says which byte
/// order its words are read in; the index in shared memory uses the machine's own.
struct WALChecksum: Equatable, Sendable {
    var first: UInt32 = 0
    var second: UInt32 = 0

    enum WordOrder: Sendable {
        case littleEndian, bigEndian

        /// The order of the machine, which the WAL index (`-shm`) is written in.
        static let native: WordOrder = UInt32(1).littleEndian == 1 ? .littleEndian : .bigEndian
    }

    /// Extends the checksum over `bytes`, whose count is a multiple of 8.
    mutating func add(_ bytes: UnsafeRawBufferPointer, order: WordOrder) {
        var offset = 0
        while offset + 8 <= bytes.count {
            first &+= Self.word(bytes, offset, order) &+ second
            second &+= Self.word(bytes, offset + 4, order) &+ first
            offset += 8
        }
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ order: WordOrder) -> UInt32 {
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return order == .littleEndian ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw)
    }
}

/// Big-endian 32-bit fields, as SQLite writes its file headers.
extension UnsafeRawBufferPointer {
    func bigEndianWord(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
