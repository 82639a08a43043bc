import Foundation

/// Why a directory cannot be mounted on, in words a user can act on.
public enum MountPointError: Error, Equatable, CustomStringConvertible {
    case stale(path: String)
    case missing(path: String)
    case notDirectory(path: String)
    case alreadyMounted(path: String)
    case notEmpty(path: String)
    case inaccessible(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .stale(let path):
            "\(path) is a stale mailfs mount from a crashed run (transport endpoint is not connected): "
                + "run `fusermount3 -u \(path)`"
        case .missing(let path): "\(path) does not exist"
        case .notDirectory(let path): "\(path) is not a directory"
        case .alreadyMounted(let path): "\(path) is already a mount point"
        case .notEmpty(let path):
            "\(path) is not empty: mailfs mounts on an empty directory (the mount would hide its files)"
        case .inaccessible(let path, let code): "\(path): \(String(cString: strerror(code)))"
        }
    }
}

/// Checks made before mounting, so a bad mount point fails with a clear message instead of
/// libfuse's terse one (or, for a non-empty directory, instead of silently hiding files).
public enum MountPoint {
    /// Throws unless `path` is an existing, empty (or `allowNonEmpty`) directory that is not
    /// a mount point. A dead FUSE daemon leaves its mount behind, where stat() fails with
    /// ENOTCONN (ECONNABORTED once aborted); that is reported as a stale mount.
    public static func check(_ path: String, allowNonEmpty: Bool = false) throws(MountPointError) {
        let own = try status(of: path)
        guard own.st_mode & S_IFMT == S_IFDIR else { throw .notDirectory(path: path) }
        let parent = try status(of: path + "/..")
        let isRoot = own.st_dev == parent.st_dev && own.st_ino == parent.st_ino
        guard own.st_dev == parent.st_dev, !isRoot else {
            // stat() of a dead FUSE mount can still be answered from the kernel's attribute
            // cache; statvfs() always asks the daemon, so it tells stale from live.
            var info = statvfs()
            if statvfs(path, &info) != 0, errno == ENOTCONN || errno == ECONNABORTED { throw .stale(path: path) }
            throw .alreadyMounted(path: path)
        }
        if !allowNonEmpty, try hasEntries(path) { throw .notEmpty(path: path) }
    }

    /// Detaches the stale mount a dead daemon left at `path` (`fusermount3 -u -z`: the
    /// kernel lets go of it even while a shell still sits in it). Returns whether `path`
    /// is then mountable.
    public static func detachStale(_ path: String) -> Bool {
        let unmount = Process()
        unmount.executableURL = URL(fileURLWithPath: "/usr/bin/fusermount3")
        unmount.arguments = ["-u", "-z", path]
        guard (try? unmount.run()) != nil else { return false }
        unmount.waitUntilExit()
        return unmount.terminationStatus == 0
    }

    private static func status(of path: String) throws(MountPointError) -> stat {
        var buffer = stat()
        guard stat(path, &buffer) == 0 else { throw error(errno, path: path) }
        return buffer
    }

    private static func error(_ code: Int32, path: String) -> MountPointError {
        switch code {
        case ENOTCONN, ECONNABORTED: .stale(path: path)
        case ENOENT: .missing(path: path)
        case ENOTDIR: .notDirectory(path: path)
        default: .inaccessible(path: path, errno: code)
        }
    }

    /// Stops at the first name other than "." and "..": a huge directory costs one read.
    private static func hasEntries(_ path: String) throws(MountPointError) -> Bool {
        guard let directory = opendir(path) else { throw error(errno, path: path) }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { return true }
        }
        return false
    }
}
