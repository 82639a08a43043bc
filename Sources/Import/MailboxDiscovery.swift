import Foundation
import MailCore
import Store

/// One folder's worth of mail found on disk.
struct DiscoveredMailbox: Sendable {
    enum Format: Sendable { case maildir, mbox }
    var url: URL
    var format: Format
    /// Folder name with "/" as hierarchy separator ("INBOX", "Projects/Budget").
    var folderName: String
}

/// Finds the mailboxes under an import path: Maildirs (a directory with cur/ or new/),
/// Maildir++ subfolders (".Work.Reports" inside a Maildir), and mbox files (starting
/// with "From "), recursively to a bounded depth.
enum MailboxDiscovery {
    static let maxDepth = 16

    static func discover(at url: URL, folderOverride: String?) -> [DiscoveredMailbox] {
        let root = url.standardizedFileURL
        if isDirectory(root) {
            var found: [DiscoveredMailbox] = []
            walk(root, relative: [], depth: 0, into: &found)
            if let folderOverride, found.count == 1 { found[0].folderName = folderOverride }
            return found
        }
        guard isMbox(root) else { return [] }
        let name = folderOverride ?? folderName(forMboxFile: root.lastPathComponent)
        return [DiscoveredMailbox(url: root, format: .mbox, folderName: name)]
    }

    private static func walk(_ dir: URL, relative: [String], depth: Int, into found: inout [DiscoveredMailbox]) {
        guard depth <= maxDepth else { return }
        let fm = FileManager.default
        if isMaildir(dir) {
            let name = relative.isEmpty ? "INBOX" : relative.joined(separator: "/")
            found.append(DiscoveredMailbox(url: dir, format: .maildir, folderName: name))
            // Maildir++: subfolders are ".A.B" directories inside the Maildir.
            for entry in sortedEntries(dir) where entry.hasPrefix(".") && entry.count > 1 {
                let sub = dir.appendingPathComponent(entry)
                guard isMaildir(sub) else { continue }
                let parts = entry.dropFirst().split(separator: ".").map(String.init)
                found.append(DiscoveredMailbox(url: sub, format: .maildir,
                                               folderName: (relative + parts).joined(separator: "/")))
            }
        }
        for entry in sortedEntries(dir) where !entry.hasPrefix(".") {
            guard !["cur", "new", "tmp"].contains(entry) || !isMaildir(dir) else { continue }
            let child = dir.appendingPathComponent(entry)
            if isDirectory(child) {
                walk(child, relative: relative + [entry], depth: depth + 1, into: &found)
            } else if (try? fm.attributesOfItem(atPath: child.path)[.type] as? FileAttributeType) == .typeRegular,
                      isMbox(child) {
                let name = folderName(forMboxFile: entry)
                found.append(DiscoveredMailbox(url: child, format: .mbox,
                                               folderName: (relative + [name]).joined(separator: "/")))
            }
        }
    }

    static func folderName(forMboxFile name: String) -> String {
        for ext in [".mbox", ".mbx", ".mbs"] where name.lowercased().hasSuffix(ext) && name.count > ext.count {
            return String(name.dropLast(ext.count))
        }
        return name
    }

    private static func sortedEntries(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }

    static func isMaildir(_ url: URL) -> Bool {
        isDirectory(url.appendingPathComponent("cur")) || isDirectory(url.appendingPathComponent("new"))
    }

    static func isMbox(_ url: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 8)) ?? Data()
        return MboxSplitter.looksLikeMbox([UInt8](head))
    }
}
