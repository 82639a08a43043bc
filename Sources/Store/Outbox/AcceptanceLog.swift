import Foundation
import Synchronization

/// The moment an SMTP server accepts a message, its send-queue id is appended to this
/// file with one write(2), on the connection's event loop, before QUIT and before the
/// sender resumes. SQLite is not used for it: its commit may wait for the writer lock (a
/// sync in progress), and every millisecond there is a window in which a crash would send
/// the message again. At start-up the ids found here are marked accepted, then the file
/// is emptied. (A power cut may lose the last write: the window left is the kernel's.)
final class AcceptanceLog: Sendable {
    let url: URL
    private let descriptor = Mutex<Int32>(-1)

    init(directory: URL) {
        url = directory.appendingPathComponent("accepted-sends")
    }

    deinit {
        descriptor.withLock { fd in if fd >= 0 { close(fd) } }
    }

    /// Appends `id` (a line); opened once, append-only, private.
    func record(_ id: Int64) {
        descriptor.withLock { fd in
            if fd < 0 { fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
            guard fd >= 0 else { return }
            let line = Array("\(id)\n".utf8)
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
    }

    /// The ids recorded so far (a torn last line is ignored).
    func recordedIds() -> [Int64] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { Int64($0) }
    }

    func clear() {
        descriptor.withLock { fd in
            if fd >= 0 { close(fd); fd = -1 }
            truncate(url.path, 0)
        }
    }
}
