import Foundation
import Synchronization

/// The moment an SMTP server accepts a message for some recipients (one transaction: a
/// message may take several), its send-queue id and those recipients are appended to this
/// file with one write(2), on the connection's event loop, before the next command and
/// before the sender resumes. SQLite is not used for it: its commit may wait for the writer
/// lock (a sync in progress), and every millisecond there is a window in which a crash would
/// send the message to them again. At start-up the recipients found here are added to their
/// rows' `deliveredTo`, then the file is emptied. (A power cut may lose the last write: the
/// window left is the kernel's.)
///
/// A line is the id, then each recipient after a tab (SMTP addresses hold no control
/// character: `SMTPSubmission.validate`). A line with the id alone, as written before
/// messages went in several transactions, stands for every recipient.
final class AcceptanceLog: Sendable {
    let url: URL
    private let descriptor = Mutex<Int32>(-1)

    /// One line: the message, and whom the server took it for (nil: every recipient).
    struct Entry: Equatable {
        var id: Int64
        var recipients: [String]?
    }

    init(directory: URL) {
        url = directory.appendingPathComponent("accepted-sends")
    }

    deinit {
        descriptor.withLock { fd in if fd >= 0 { close(fd) } }
    }

    /// Appends a line; the file is opened once, append-only, private.
    func record(_ id: Int64, recipients: [String]) {
        descriptor.withLock { fd in
            if fd < 0 { fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
            guard fd >= 0 else { return }
            let line = Array(([String(id)] + recipients).joined(separator: "\t").utf8) + [0x0A]
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
    }

    /// The lines recorded so far. A last line without its line feed was cut by the crash
    /// and is ignored.
    func entries() -> [Entry] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard let first = fields.first, let id = Int64(first) else { return nil }
            return Entry(id: id, recipients: fields.count > 1 ? Array(fields.dropFirst()) : nil)
        }
    }

    func clear() {
        descriptor.withLock { fd in
            if fd >= 0 { close(fd); fd = -1 }
            truncate(url.path, 0)
        }
    }
}
