import CFileSpace
import Foundation
import Synchronization

/// `mailfs-messages.pack` beside the store: the raw bytes of the messages stored whole,
/// appended one after another, each found by the offset and length its `packedContent`
/// row gives (docs/DECISIONS.md, "Raw messages in a pack file").
///
/// The store's database keeps everything else. SQLite wrote each raw message twice (to the
/// WAL, then to the database at the checkpoint) and read it back once in between; here it
/// is written once, and a reader gets a message with one `pread`, which the kernel's
/// readahead serves in one request where SQLite read a large message's pages one by one.
///
/// The rules that keep the pack and the database in step:
/// - **Appends happen inside the store's write transaction.** GRDB begins those IMMEDIATE,
///   so SQLite's write lock, held from the start, orders the appends across threads and
///   processes, and each goes at the file's end as it is then.
/// - **A transaction that appended syncs the pack before it commits** (`syncAppended`): a
///   row that survives a crash always finds its bytes. Writeback starts at every
///   `writebackChunk` appended, so the sync mostly waits for what is already on its way.
/// - **Space is given back by punching holes** (`punch`), only after the deletion that
///   freed it is durable in the database, and never under an open file (`PackHoles`,
///   `PackReaders`). The file never shrinks and a region is never written twice, so an
///   offset stays valid as long as its row exists or a file holds it open.
/// - Bytes appended by a transaction that rolled back are punched at once (`endTransaction`).
public final class MessagePack: Sendable {
    public static let fileName = "mailfs-messages.pack"

    let url: URL
    private let fd: Int32
    /// What this process appended in its write transaction under way: synced before the
    /// commit, punched if the transaction fails.
    private let appended = Mutex<Appended?>(nil)
    /// A transaction's appends start their writeback each time this many bytes have come,
    /// not after every message: started per message, the file system allocated and wrote
    /// each one alone, inside the store's write transaction (docs/DECISIONS.md, "Initial
    /// sync: where the CPU went").
    static let writebackChunk: Int64 = 8 << 20

    private struct Appended {
        var range: Range<Int64>
        /// Where the bytes whose writeback has not been started begin.
        var unstarted: Int64
    }
    /// The regions open files read, which `PackHoles` leaves until they are closed.
    let readers = PackReaders()

    /// Punches a hole (0, or -1 with `errno` set): `punchHole`, or what a test puts in its
    /// place to see a failure.
    typealias HolePuncher = @Sendable (_ fd: Int32, _ offset: off_t, _ length: off_t) -> Int32
    /// `fallocate` punching a hole, keeping the file's size.
    static let punchHole: HolePuncher = { fd, offset, length in mailfs_punch_hole(fd, offset, length) }
    private let punchHole: HolePuncher

    init(directory: URL, punchHole: @escaping HolePuncher) throws {
        url = directory.appendingPathComponent(Self.fileName)
        let opened = Foundation.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw PackError(operation: "open", path: url.path, code: errno) }
        fd = opened
        self.punchHole = punchHole
    }

    deinit { close(fd) }

    /// Appends `bytes` at the end of the file; returns where they start. Call only inside
    /// the store's write transaction, `syncAppended` before it commits and `endTransaction`
    /// after (`MailStore.writeStoringRaw` does both).
    func append(_ bytes: UnsafeRawBufferPointer) throws -> Int64 {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw PackError(operation: "fstat", path: url.path, code: errno) }
        let offset = Int64(status.st_size)
        let end = offset + Int64(bytes.count)
        do {
            try FileRange.write(fd, bytes, at: offset)
        } catch {
            // A short write leaves bytes no row will point to (if they stay, only space is lost).
            try? punch(offset..<end)
            throw PackError(operation: "write", path: url.path, code: error.code)
        }
        let chunk = appended.withLock { state -> Range<Int64>? in
            var next = state ?? Appended(range: offset..<end, unstarted: offset)
            next.range = min(next.range.lowerBound, offset)..<max(next.range.upperBound, end)
            var chunk: Range<Int64>?
            if end - next.unstarted >= Self.writebackChunk {
                chunk = next.unstarted..<end
                next.unstarted = end
            }
            state = next
            return chunk
        }
        // Start writing back a full chunk now, so the sync before the commit waits for less.
        if let chunk { _ = mailfs_start_writeback(fd, off_t(chunk.lowerBound), off_t(chunk.count)) }
        return offset
    }

    /// Makes this transaction's appends durable: call last inside the transaction, before
    /// its commit. Nothing to do when it appended nothing.
    func syncAppended() throws {
        guard appended.withLock({ $0 }) != nil else { return }
        do {
            try FileRange.syncData(fd)
        } catch {
            throw PackError(operation: "fdatasync", path: url.path, code: error.code)
        }
    }

    /// Closes this process's write transaction: appends it committed now belong to their
    /// rows; those of a transaction that rolled back belong to nothing, and are punched.
    func endTransaction(committed: Bool) {
        guard let range = appended.withLock({ state in defer { state = nil }; return state?.range }) else { return }
        if !committed { try? punch(range) }
    }

    /// `length` bytes at `offset`. A file shorter than that (damaged, or replaced) is an
    /// error: the message is unreadable, never cut short.
    func read(offset: Int64, length: Int) throws -> [UInt8] {
        guard length > 0 else { return [] }
        var failure: FileRangeError?
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            let read = Result { () throws(FileRangeError) in
                try FileRange.read(fd, into: UnsafeMutableRawBufferPointer(buffer), at: offset)
            }
            switch read {
            case .success(let filled): count = filled
            case .failure(let error): failure = error; count = 0
            }
        }
        if let failure { throw PackError(operation: "read", path: url.path, code: failure.code) }
        guard bytes.count == length else {
            throw PackError(operation: "read", path: url.path,
                            reason: "it ends before byte \(offset + Int64(length)): cut short or replaced")
        }
        return bytes
    }

    /// Asks the kernel to start reading `length` bytes at `offset` into the page cache and
    /// returns at once: an open message is then read from disk in one request while its
    /// reader is still being answered, as a file system's readahead does for a plain file,
    /// instead of one disk read per FUSE READ of a cold message. Advice only: a failure
    /// costs speed, never bytes.
    func prefetch(offset: Int64, length: Int) {
        _ = posix_fadvise(fd, off_t(offset), off_t(length), POSIX_FADV_WILLNEED)
    }

    /// Gives the blocks of `range` back to the file system; its bytes read as zeros after.
    /// Failing keeps the space in use, nothing else: `PackHoles` reports its passes'
    /// failures; the bytes of a failed append or transaction are given back best-effort.
    func punch(_ range: Range<Int64>) throws(PackError) {
        guard !range.isEmpty else { return }
        guard punchHole(fd, off_t(range.lowerBound), off_t(range.count)) == 0 else {
            throw PackError(operation: "fallocate (punching a hole)", path: url.path, code: errno)
        }
    }

    /// Holes are punched only while no backup copies the pack (`MailStore.backup`), which
    /// holds a shared `flock` on it: a pass takes an exclusive one, or waits for a later pass.
    /// False when a backup holds it.
    func beginPunching() -> Bool {
        flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    func endPunching() {
        flock(fd, LOCK_UN)
    }

    /// Blocks in use, in bytes: less than the file's size once holes are punched.
    var diskUse: Int64 {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return 0 }
        return Int64(status.st_blocks) * 512
    }
}

/// A failed operation on the pack file, with its reason.
public struct PackError: Error, CustomStringConvertible {
    public let operation: String
    public let path: String
    public let reason: String
    /// The system's error number; 0 when the file itself is wrong (`isDamage`).
    public let code: Int32

    init(operation: String, path: String, code: Int32) {
        self.init(operation: operation, path: path, reason: String(cString: strerror(code)), code: code)
    }

    init(operation: String, path: String, reason: String, code: Int32 = 0) {
        self.operation = operation
        self.path = path
        self.reason = reason
        self.code = code
    }

    /// The file is not what the store says it is (`StoreReader.damage(in:)` reports it).
    public var isDamage: Bool { code == 0 }

    /// The file system cannot do it at all (hole punching on a file system without it).
    var isUnsupported: Bool { code == EOPNOTSUPP || code == ENOSYS }

    public var description: String { "\(operation) of \(path) failed: \(reason)" }
}
