import Foundation
import Store

/// Finds a running mailfs mount, so `mailfs status` shows the live state (phase, progress,
/// errors) that only the mounting process knows, and `mailfs search` prints paths in it.
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

    /// Where a mount of a store records its mount point: several mounts may run (of other
    /// stores), and only the store's own mount holds its messages.
    static func recordFile(store: MailStore) -> URL {
        store.databaseURL.deletingLastPathComponent().appendingPathComponent("mount-point")
    }

    /// The mount point as /proc/self/mounts will show it. Resolved before mounting: a
    /// path lookup through the mount would wait on the very process meant to answer it.
    static func canonicalPath(_ mountPoint: String) -> String {
        URL(fileURLWithPath: mountPoint).resolvingSymlinksInPath().path
    }

    /// Called once mounted; the record is removed at unmount (and ignored once stale).
    static func record(canonicalMountPoint: String, store: MailStore) {
        _ = FileManager.default.createFile(atPath: recordFile(store: store).path, contents: Data(canonicalMountPoint.utf8),
                                           attributes: [.posixPermissions: 0o600])
    }

    static func removeRecord(store: MailStore) {
        try? FileManager.default.removeItem(at: recordFile(store: store))
    }

    /// The mount point of the running mount of `store`, if there is one.
    static func mountPoint(of store: MailStore) -> String? {
        guard let recorded = try? String(contentsOf: recordFile(store: store), encoding: .utf8),
              mountPoints().contains(recorded) else { return nil }
        return recorded
    }
}
