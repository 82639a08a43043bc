/// What SQLite's recovery takes from a write-ahead log, and what it would drop without a
/// word, found by walking the log's frames in order.
///
/// Each frame is a 24-byte header and one page:
///
/// ```
/// 0  page number        8  salt-1    16 checksum-1   (running over every frame before,
/// 4  pages in the store 12 salt-2    20 checksum-2    this frame's first 8 bytes and its page)
///    after the commit (0 inside a transaction)
/// ```
///
/// SQLite takes the longest run of valid frames from the start (the header's salts, a page
/// number, the running checksum) up to its last commit, and ignores the rest: frames of an
/// earlier generation of the log carry other salts, and a frame a crash left half-written
/// fails its checksum with nothing committed after it. A frame of this generation that
/// fails with a commit after it is damage: the transactions after it would be lost.
struct WALFrameScan: Sendable {
    static let frameHeaderSize = 24

    let header: WALHeader
    /// A frame whose running checksum is kept (`watchedChecksum`): the last commit the WAL
    /// index (`-shm`) recorded.
    let watchedFrame: Int?

    /// Whole frames in the file.
    private(set) var frames = 0
    /// Frames in the valid run from the start.
    private(set) var validFrames = 0
    /// The valid run up to its last commit: what SQLite's recovery takes.
    private(set) var committedFrames = 0
    /// Commits in the valid run.
    private(set) var commits = 0
    /// The running checksum at `watchedFrame`, if the valid run reaches it.
    private(set) var watchedChecksum: WALChecksum?
    /// Frames of this generation, past the end of the valid run, that commit a transaction.
    private(set) var commitsAfterBreak = 0
    private var running: WALChecksum
    private var broken = false

    init(header: WALHeader, watchedFrame: Int? = nil) {
        self.header = header
        self.watchedFrame = watchedFrame
        running = header.checksum
    }

    var frameSize: Int { Self.frameHeaderSize + header.pageSize }

    /// The first frame SQLite would not take, when it is damage rather than the end.
    var damagedFrame: Int? { commitsAfterBreak > 0 ? validFrames + 1 : nil }

    /// Adds the next frame: exactly `frameSize` bytes.
    mutating func add(frame: UnsafeRawBufferPointer) {
        frames += 1
        let salts = WALSalts(first: frame.bigEndianWord(at: 8), second: frame.bigEndianWord(at: 12))
        let isCommit = frame.bigEndianWord(at: 4) != 0
        guard !broken else {
            if salts == header.salts && isCommit { commitsAfterBreak += 1 }
            return
        }
        var next = running
        next.add(UnsafeRawBufferPointer(rebasing: frame[0..<8]), order: header.wordOrder)
        next.add(UnsafeRawBufferPointer(rebasing: frame[Self.frameHeaderSize...]), order: header.wordOrder)
        let stored = WALChecksum(first: frame.bigEndianWord(at: 16), second: frame.bigEndianWord(at: 20))
        guard salts == header.salts, frame.bigEndianWord(at: 0) != 0, next == stored else {
            broken = true
            return
        }
        running = next
        validFrames = frames
        if frames == watchedFrame { watchedChecksum = running }
        if isCommit {
            committedFrames = frames
            commits += 1
        }
    }
}
