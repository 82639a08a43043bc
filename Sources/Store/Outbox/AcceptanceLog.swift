import Foundation
import Synchronization

/// The moment an SMTP server accepts a message for some recipients (one transaction: a
/// message may take several), its send-queue id and those recipients are appended to this
/// file with one write(2), on the connection's event loop, before the next command and
/// before the sender resumes. SQLite is not used for it: its commit may wait for the writer
/// lock (a sync in progress), and every millisecond there is a window in which a crash would
/// send the message to them again. At start-up the recipients found here are added to their
/// rows' `deliveredTo`, then the file is emptied. (A power cut may lose the last write: the
/// window left is the kernel's.) When the file cannot be written, `record` throws and the
/// sender writes the recipients to the database instead (`MailStore.recordDelivered`):
/// slower, as safe.
///
/// A line is the id, then each recipient after a tab (SMTP addresses hold no control
/// character: `SMTPSubmission.validate`). A line with the id alone, as written before
/// messages went in several transactions, stands for every recipient.
final class AcceptanceLog: Sendable {
    let url: URL
    private let file = Mutex(OpenFile())

    /// The file as `record` holds it open.
    private struct OpenFile {
        var fd: Int32 = -1
        /// A write went short: its line has no line feed, and a line appended after it would
        /// be read as its end, so nothing more is appended until the file is emptied.
        var torn = false
    }

    /// One line: the message, and whom the server took it for (nil: every recipient).
    struct Entry: Equatable {
        var id: Int64
        var recipients: [String]?
    }

    init(directory: URL) {
        url = directory.appendingPathComponent("accepted-sends")
    }

    deinit {
        file.withLock { file in if file.fd >= 0 { close(file.fd) } }
    }

    /// Why an acceptance could not be recorded, or the recorded ones read back or cleared.
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var reason: String

        init(operation: String, path: String, reason: String) {
            self.operation = operation
            self.path = path
            self.reason = reason
        }

        init(operation: String, path: String, code: Int32) {
            self.init(operation: operation, path: path, reason: String(cString: strerror(code)))
        }

        var description: String { "cannot \(operation) \(path): \(reason)" }
    }

    /// Appends a line; the file is opened once, append-only, private. Throws when the line
    /// is not on its way to disk: the caller must then record the acceptance otherwise.
    func record(_ id: Int64, recipients: [String]) throws(Failure) {
        let line = Array(([String(id)] + recipients).joined(separator: "\t").utf8) + [0x0A]
        try file.withLock { (file: inout OpenFile) throws(Failure) in
            guard !file.torn else { throw Failure(operation: "write", path: url.path, reason: "an earlier line was cut short") }
            if file.fd < 0 { file.fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
            guard file.fd >= 0 else { throw Failure(operation: "open", path: url.path, code: errno) }
            let written = Self.append(line, to: file.fd)
            guard written >= 0 else { throw Failure(operation: "write", path: url.path, code: errno) }
            guard written == line.count else {
                file.torn = true
                throw Failure(operation: "write", path: url.path, reason: "wrote \(written) of \(line.count) bytes")
            }
        }
    }

    /// One write(2), so a line is never interleaved with another; returns what it returned.
    /// A short one (a full disk) leaves a line without its line feed, which `entries()` ignores.
    private static func append(_ line: [UInt8], to fd: Int32) -> Int {
        var written = -1
        repeat {
            written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        } while written < 0 && errno == EINTR
        return written
    }

    /// The lines recorded so far (none when there is no file). A last line without its
    /// line feed was cut by the crash and is ignored.
    func entries() throws(Failure) -> [Entry] {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            guard errno == ENOENT else { throw Failure(operation: "open", path: url.path, code: errno) }
            return []
        }
        defer { close(fd) }
        let text = String(decoding: try Self.readAll(fd, path: url.path), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard let first = fields.first, let id = Int64(first) else { return nil }
            return Entry(id: id, recipients: fields.count > 1 ? Array(fields.dropFirst()) : nil)
        }
    }

    private static func readAll(_ fd: Int32, path: String) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count > 0 {
                bytes += buffer[..<count]
            } else if errno != EINTR {
                throw Failure(operation: "read", path: path, code: errno)
            }
        }
    }

    /// Empties the file once its lines are in the database.
    func clear() throws(Failure) {
        try file.withLock { (file: inout OpenFile) throws(Failure) in
            if file.fd >= 0 { close(file.fd) }
            file = OpenFile()
            guard truncate(url.path, 0) == 0 || errno == ENOENT else {
                throw Failure(operation: "truncate", path: url.path, code: errno)
            }
        }
    }
}
