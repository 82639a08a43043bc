import Foundation

/// A download on its way into the content cache, read while it grows
/// (docs/ARCHITECTURE.md, "Lazy content"). One writer (the downloader) appends decoded
/// bytes to a private partial file; any number of readers read ranges of it, each waiting
/// only until its range has arrived or the download ended. `SyncStore.finishContent`
/// renames the file into the cache (readers keep their descriptor: same inode);
/// `SyncStore.abandonContent` unlinks it, and readers still waiting get the failure.
///
/// Reads block their thread (libfuse's workers); `finished()` is the async way to wait.
public final class ContentStream: @unchecked Sendable {
    public let key: ContentKey
    let accountId: Int64
    let fileName: String
    let directory: URL
    let partialPath: String
    private let fd: Int32
    private let condition = NSCondition()
    // GUARDED_BY(condition): written, outcome, waiters.
    // INVARIANT: `written` only grows; once `outcome` is set neither changes again.
    private var written: Int64 = 0
    private var outcome: Result<CachedFile, ContentUnavailable>?
    private var waiters: [CheckedContinuation<Result<CachedFile, ContentUnavailable>, Never>] = []

    init(key: ContentKey, accountId: Int64, fileName: String, directory: URL, partialPath: String, fd: Int32) {
        self.key = key
        self.accountId = accountId
        self.fileName = fileName
        self.directory = directory
        self.partialPath = partialPath
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// Decoded bytes written so far.
    public var receivedBytes: Int64 {
        condition.lock()
        defer { condition.unlock() }
        return written
    }

    // MARK: Writer (one at a time)

    /// Appends the next decoded bytes and wakes the readers waiting for them.
    public func append(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        let offset = receivedBytes
        let done = bytes.withUnsafeBytes { raw in
            Result { () throws(FileRangeError) in try FileRange.write(fd, raw, at: offset) }
        }
        if case .failure(let error) = done { throw CacheError.writeFailed(path: partialPath, errno: error.code) }
        condition.lock()
        written += Int64(bytes.count)
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the download; every reader and `finished()` caller learns the outcome.
    func end(_ result: Result<CachedFile, ContentUnavailable>) {
        condition.lock()
        guard outcome == nil else {
            condition.unlock()
            return
        }
        outcome = result
        let resumed = waiters
        waiters = []
        condition.broadcast()
        condition.unlock()
        for waiter in resumed { waiter.resume(returning: result) }
    }

    // MARK: Readers

    /// Up to `size` bytes at `offset`, waiting until they have arrived. Short only at the
    /// end of the content, so a reader never takes a slow network for end of file; a read
    /// that needs bytes the download failed to bring throws its failure.
    public func read(offset: Int64, size: Int) throws(ContentUnavailable) -> [UInt8] {
        guard size > 0, offset >= 0 else { return [] }
        let end = try waitForBytes(through: offset + Int64(size))
        guard end > offset else { return [] }
        var buffer = [UInt8](repeating: 0, count: Int(end - offset))
        let read = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(FileRangeError) in try FileRange.read(fd, into: raw, at: offset) }
        }
        let filled: Int
        switch read {
        case .success(let count): filled = count
        case .failure(let error): throw .failed("cannot read \(partialPath): \(error.reason)")
        }
        // The bytes arrived (`waitForBytes`): a file that ends before them was cut behind us.
        guard filled == buffer.count else { throw .failed("cannot read \(partialPath): it ends before byte \(end)") }
        return buffer
    }

    /// The end of the readable range `..<wanted`: `wanted` once that much arrived, the
    /// content's size if it ended shorter.
    private func waitForBytes(through wanted: Int64) throws(ContentUnavailable) -> Int64 {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if written >= wanted { return wanted }
            switch outcome {
            case .success(let file)?: return min(wanted, file.size)
            case .failure(let failure)?: throw failure
            case nil: condition.wait()
            }
        }
    }

    /// The cached file once the download completed, or why it failed.
    public func finished() async throws(ContentUnavailable) -> CachedFile {
        let result = await withCheckedContinuation { (waiter: CheckedContinuation<Result<CachedFile, ContentUnavailable>, Never>) in
            condition.lock()
            if let outcome {
                condition.unlock()
                waiter.resume(returning: outcome)
            } else {
                waiters.append(waiter)
                condition.unlock()
            }
        }
        return try result.get()
    }

    /// The cached file if the download completed already.
    public var completedFile: CachedFile? {
        condition.lock()
        defer { condition.unlock() }
        if case .success(let file)? = outcome { return file }
        return nil
    }
}
