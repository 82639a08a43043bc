import Foundation

/// File work of the content cache, kept to one place: private modes, no symlink
/// following, and a file appears under its name only once complete.
enum CacheFiles {
    static func write(_ bytes: [UInt8], named name: String, in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let final = directory.appendingPathComponent(name).path
        let temporary = final + ".partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CacheError.writeFailed(path: temporary, errno: errno) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                let code = errno
                unlink(temporary)
                throw CacheError.writeFailed(path: temporary, errno: code)
            }
            written += result
        }
        guard rename(temporary, final) == 0 else {
            let code = errno
            unlink(temporary)
            throw CacheError.writeFailed(path: final, errno: code)
        }
    }

    static func remove(_ files: [URL]) {
        for file in files { unlink(file.path) }
    }
}
