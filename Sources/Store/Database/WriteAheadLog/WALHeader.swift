/// The 32-byte header of SQLite's write-ahead log (https://www.sqlite.org/fileformat2.html#walformat),
/// every field a big-endian 32-bit word:
///
/// ```
/// 0  magic 0x377f0682 (checksums read little-endian words) or 0x377f0683 (big-endian)
/// 4  format version 3007000         16 salt-1   20 salt-2   (copied into every frame)
/// 8  page size                      24 checksum-1, 28 checksum-2 of bytes 0-23
/// 12 checkpoint sequence
/// ```
///
/// SQLite ignores a log whose header is wrong, silently: the store then opens without it.
struct WALHeader: Equatable, Sendable {
    static let size = 32
    static let formatVersion: UInt32 = 3_007_000

    let wordOrder: WALChecksum.WordOrder
    let pageSize: Int
    /// Salt-1 and salt-2: a frame belongs to this generation of the log only if it carries them.
    let salts: WALSalts
    /// Where every frame's running checksum starts.
    let checksum: WALChecksum

    enum Problem: Error, Equatable, CustomStringConvertible {
        case cutShort(bytes: Int)
        case badMagic(UInt32)
        case badVersion(UInt32)
        case badPageSize(UInt32)
        case badChecksum

        var description: String {
            switch self {
            case .cutShort(let bytes): "it is \(bytes) bytes long, shorter than its own header"
            case .badMagic(let magic): "its header does not start like a WAL's (0x\(String(magic, radix: 16)))"
            case .badVersion(let version): "its header names an unknown format (\(version))"
            case .badPageSize(let size): "its header gives an impossible page size (\(size))"
            case .badChecksum: "its header does not match its checksum"
            }
        }
    }

    /// The header at the start of `bytes` (a log's first bytes, at least 32 unless the log is shorter).
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(Problem) -> WALHeader {
        guard bytes.count >= size else { throw .cutShort(bytes: bytes.count) }
        let magic = bytes.bigEndianWord(at: 0)
        guard magic & 0xFFFF_FFFE == 0x377F_0682 else { throw .badMagic(magic) }
        let version = bytes.bigEndianWord(at: 4)
        guard version == formatVersion else { throw .badVersion(version) }
        let pageSize = bytes.bigEndianWord(at: 8)
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { throw .badPageSize(pageSize) }
        let order: WALChecksum.WordOrder = magic & 1 == 1 ? .bigEndian : .littleEndian
        var checksum = WALChecksum()
        checksum.add(UnsafeRawBufferPointer(rebasing: bytes[0..<24]), order: order)
        guard checksum == WALChecksum(first: bytes.bigEndianWord(at: 24), second: bytes.bigEndianWord(at: 28)) else {
            throw .badChecksum
        }
        return WALHeader(wordOrder: order, pageSize: Int(pageSize),
                         salts: WALSalts(first: bytes.bigEndianWord(at: 16), second: bytes.bigEndianWord(at: 20)),
                         checksum: checksum)
    }
}

/// A log generation's two salts: SQLite changes them each time the log starts over, so a
/// frame left from an earlier generation is told from a current one.
struct WALSalts: Equatable, Sendable {
    let first: UInt32
    let second: UInt32
}
