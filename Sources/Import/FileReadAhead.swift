import Foundation

/// Asks the kernel to start reading the next files of a Maildir while the reader is still
/// on earlier ones: a thread of its own opens each file and advises `WILLNEED`, staying at
/// most `window` files ahead of the reader.
///
/// The import's reader reads a batch of files, then parses it; without this, the disk sat
/// idle while it parsed and the reader waited for every cold file in turn
/// (docs/DECISIONS.md, "The kernel reads ahead, and an import checkpoints rarely"). The
/// advice only fills the page cache: what the reader reads is
/// read as before, whatever the advice did.
final class FileReadAhead: @unchecked Sendable {
    private let paths: [String]
    private let window: Int
    private let advise: @Sendable (String) -> Void
    private let condition = NSCondition()
    // GUARDED_BY(condition): both.
    private var reached = 0
    private var stopped = false

    /// Starts advising on `paths`, in order (`advise`: tests watch it).
    init(paths: [String], window: Int = 1000, advise: @escaping @Sendable (String) -> Void = FileReadAhead.willNeed) {
        self.paths = paths
        self.window = window
        self.advise = advise
        guard !paths.isEmpty else { return }
        let thread = Thread { [self] in run() }
        thread.name = "mailfs-import-read-ahead"
        thread.start()
    }

    /// The reader is at `index`: the thread may advise up to `index + window`.
    func reader(at index: Int) {
        condition.lock()
        reached = index
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread (the reader is done, or stopped).
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        for (index, path) in paths.enumerated() {
            guard waitForRoom(index) else { return }
            advise(path)
        }
    }

    /// Starts reading the whole file into the page cache, without waiting for it. A file
    /// gone or unreadable is the reader's to report.
    static func willNeed(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return }
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED)
        close(fd)
    }

    /// Waits until `index` is within the window; false once stopped.
    private func waitForRoom(_ index: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && index >= reached + window { condition.wait() }
        return !stopped
    }
}
