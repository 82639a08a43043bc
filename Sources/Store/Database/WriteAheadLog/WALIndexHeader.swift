/// The header of the WAL index (`mailfs.sqlite-shm`), as the last process that wrote the
/// store left it (https://www.sqlite.org/walformat.html): what that process knew was
/// committed to the log, and how much of it was already copied into the store file.
///
/// Written in the machine's byte order, twice (48 bytes each, so a reader can tell a torn
/// write), then the checkpoint information:
///
/// ```
/// 0  version 3007000   12 initialised   16 last committed frame   24 its running checksum
/// 8  change counter    14 page size     20 pages in the store     32 the log's salts   40 checksum
/// 96 frames copied into the store file (backfilled)
/// ```
///
/// A process that crashes leaves it behind, so the next start knows what the log must hold.
struct WALIndexHeader: Equatable, Sendable {
    static let size = 136
    private static let copySize = 48

    let lastCommittedFrame: Int
    /// The running checksum of the log at `lastCommittedFrame`.
    let lastCommitChecksum: WALChecksum
    /// The salts of the log generation it describes.
    let salts: WALSalts
    /// Frames already copied into the store file by a checkpoint.
    let backfilledFrames: Int

    /// Frames the store file lacks and only the log holds.
    var pendingFrames: Int { max(0, lastCommittedFrame - backfilledFrames) }

    /// The header at the start of `bytes`; nil when it is cut short, its two copies differ,
    /// it was never initialised, or its checksum is wrong: it then says nothing reliable.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> WALIndexHeader? {
        guard bytes.count >= size,
              bytes[0..<copySize].elementsEqual(bytes[copySize..<(2 * copySize)]),
              native(bytes, 0) == WALHeader.formatVersion, bytes[12] == 1 else { return nil }
        var checksum = WALChecksum()
        checksum.add(UnsafeRawBufferPointer(rebasing: bytes[0..<40]), order: .native)
        guard checksum == WALChecksum(first: native(bytes, 40), second: native(bytes, 44)) else { return nil }
        return WALIndexHeader(
            lastCommittedFrame: Int(native(bytes, 16)),
            lastCommitChecksum: WALChecksum(first: native(bytes, 24), second: native(bytes, 28)),
            // The salts are the log header's bytes, copied as they are.
            salts: WALSalts(first: bytes.bigEndianWord(at: 32), second: bytes.bigEndianWord(at: 36)),
            backfilledFrames: Int(native(bytes, 96)))
    }

    private static func native(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    }
}
