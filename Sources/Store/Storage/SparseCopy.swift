import Foundation

/// Copies the first bytes of one file into another, leaving holes where the source reads
/// as zeros: the pack gives deleted mail's space back as holes, and a copy of it should
/// take no more room.
enum SparseCopy {
    /// Blocks of the copy: a hole smaller than one is written as zeros.
    static let blockSize = 64 << 10

    /// Copies bytes `0..<length` of `source` to `destination` (an empty file); false when
    /// the source ends before `length`.
    static func copy(from source: Int32, to destination: Int32, length: Int64) throws -> Bool {
        var block = [UInt8](repeating: 0, count: blockSize)
        var offset: Int64 = 0
        while offset < length {
            let wanted = Int(min(Int64(blockSize), length - offset))
            let read = try block.withUnsafeMutableBytes { bytes in
                try FileRange.read(source, into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<wanted]), at: offset)
            }
            guard read == wanted else { return false }
            if block[0..<read].contains(where: { $0 != 0 }) {
                try block.withUnsafeBytes { bytes in
                    try FileRange.write(destination, UnsafeRawBufferPointer(rebasing: bytes[0..<read]), at: offset)
                }
            }
            offset += Int64(read)
        }
        guard ftruncate(destination, off_t(length)) == 0 else { throw FileRangeError(code: errno) }
        try FileRange.syncData(destination)
        return true
    }
}
