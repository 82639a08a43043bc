import Foundation

/// Finds a running mailfs mount, so `mailfs status` shows the live state (phase, progress,
/// errors) that only the mounting process knows.
enum LiveMount {
    /// Mount points of type `fuse.mailfs` in /proc/self/mounts, first first.
    static func mountPoints() -> [String] {
        guard let table = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return [] }
        return table.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 3, fields[2] == "fuse.mailfs" else { return nil }
            return unescape(String(fields[1]))
        }
    }

    /// The kernel writes space, tab, newline and backslash in mount points as octal escapes.
    static func unescape(_ field: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(field.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "\\"), utf8.count >= 3,
               let value = UInt8(String(decoding: utf8.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `.status` text of the first live mount (root, or one account's).
    static func status(account: String?) -> String? {
        for mountPoint in mountPoints() {
            let path = account.map { "\(mountPoint)/\($0)/.status" } ?? "\(mountPoint)/.status"
            if let text = try? String(contentsOfFile: path, encoding: .utf8) { return text }
        }
        return nil
    }
}
