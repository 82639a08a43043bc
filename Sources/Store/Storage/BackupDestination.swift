import Foundation

/// Where `mailfs backup` writes: a new or empty directory, so a backup never overwrites a
/// store (an earlier backup, or a live data directory given by mistake).
enum BackupDestination {
    /// Creates `url` (0700), or accepts it if it is an empty directory.
    static func prepare(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw BackupError.notADirectory(url.path) }
            let entries = try FileManager.default.contentsOfDirectory(atPath: url.path)
            guard entries.isEmpty else { throw BackupError.notEmpty(url.path, holdsStore: entries.contains("mailfs.sqlite")) }
        } else {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    /// Renames a finished file into place.
    static func publish(_ partial: URL, as final: URL) throws {
        guard rename(partial.path, final.path) == 0 else {
            throw BackupError.failed("cannot rename \(partial.path): \(String(cString: strerror(errno)))")
        }
    }

    static func syncFile(_ url: URL) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        try handle.synchronize()
    }

    /// The renames on disk.
    static func sync(_ directory: URL) throws {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw BackupError.failed("cannot open \(directory.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        fsync(fd)
    }

    static func size(of url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int64) ?? 0
    }
}

/// Why `mailfs backup` wrote nothing.
public enum BackupError: Error, CustomStringConvertible {
    case notADirectory(String)
    case notEmpty(String, holdsStore: Bool)
    case failed(String)

    public var description: String {
        switch self {
        case .notADirectory(let path):
            return "\(path) is not a directory: give mailfs backup a new or empty directory"
        case .notEmpty(let path, let holdsStore):
            return "\(path) is not empty\(holdsStore ? " (it holds a store)" : ""): mailfs backup never overwrites; "
                + "give it a new or empty directory"
        case .failed(let reason):
            return reason
        }
    }
}
