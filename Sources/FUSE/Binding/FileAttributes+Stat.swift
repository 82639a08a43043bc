import CFuse3
import Foundation

/// The user every file belongs to: whoever mounted (docs/REQUIREMENTS.md §C2, modes 0700/0600).
struct FileOwner: Sendable, Equatable {
    var uid: uid_t
    var gid: gid_t

    static var mountingUser: FileOwner { FileOwner(uid: getuid(), gid: getgid()) }
}

extension FileKind {
    /// The S_IFMT bits of this kind.
    var typeBits: mode_t {
        switch self {
        case .directory: S_IFDIR
        case .regular: S_IFREG
        }
    }
}

extension FileAttributes {
    /// `struct stat` as the kernel wants it. `st_ino` is `UInt` while `Inode` is `UInt64`:
    /// the same width on x86_64/arm64 Linux, converted explicitly.
    func statBuffer(owner: FileOwner) -> stat {
        var buffer = stat()
        buffer.st_ino = ino_t(truncatingIfNeeded: inode)
        buffer.st_mode = kind.typeBits | (mode_t(permissions) & 0o7777)
        buffer.st_nlink = nlink_t(linkCount)
        buffer.st_uid = owner.uid
        buffer.st_gid = owner.gid
        buffer.st_size = off_t(clamping: size)
        buffer.st_blksize = 4096
        buffer.st_blocks = blkcnt_t(clamping: size / 512 + (size % 512 == 0 ? 0 : 1))
        let time = timespec(modified)
        buffer.st_mtim = time
        buffer.st_ctim = time
        buffer.st_atim = time
        return buffer
    }
}

extension timespec {
    /// Whole seconds rounded down (so dates before 1970 keep a positive tv_nsec), clamped to
    /// what time_t holds; a non-finite date is the epoch.
    init(_ date: Date) {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite else {
            self.init(tv_sec: 0, tv_nsec: 0)
            return
        }
        let seconds = interval.rounded(.down)
        let limit = Double(Int32.max) * Double(Int32.max)  // far beyond any mail date, inside Int
        let clamped = min(max(seconds, -limit), limit)
        let nanoseconds = min(max((interval - seconds) * 1e9, 0), 999_999_999)
        self.init(tv_sec: time_t(clamped), tv_nsec: Int(nanoseconds))
    }
}
