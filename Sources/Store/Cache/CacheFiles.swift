import Foundation

/// File work of the content cache, kept to one place: private modes, no symlink
/// following, and a file appears under its name only once complete (a download grows in
/// a partial file beside it, renamed when done).
enum CacheFiles {
    /// Creates an empty partial file for `name` in `directory`, open for reading and writing.
    static func createPartial(for name: String, in directory: URL) throws -> (path: String, fd: Int32) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent(name).path + ".partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CacheError.writeFailed(path: path, errno: errno) }
        return (path, fd)
    }

    /// Moves a finished partial file to its name in the cache, atomically.
    static func publish(_ partialPath: String, as name: String, in directory: URL) throws -> String {
        let final = directory.appendingPathComponent(name).path
        guard rename(partialPath, final) == 0 else {
            let code = errno
            unlink(partialPath)
            throw CacheError.writeFailed(path: final, errno: code)
        }
        return final
    }

    static func remove(_ files: [URL]) {
        for file in files { unlink(file.path) }
    }
}
