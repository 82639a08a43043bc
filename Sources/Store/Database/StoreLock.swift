import Foundation

/// Which processes have a store open, so that one alone with it can judge its write-ahead
/// log at open (no other process is writing it) and mark it closed at close (no other
/// process still writes to it; `StoreOpenMark`).
///
/// Every process holds a shared `flock` on `mailfs-lock` for as long as it has the
/// store open, and tries for an exclusive one at those two moments. Both moments happen
/// under an exclusive `flock` of the data directory, the gate, so a process trying never
/// sees another halfway through opening or closing (`flock` changes a lock's kind in two
/// steps). The kernel lets go of both when a process dies, so a crash leaves nothing held.
final class StoreLock: Sendable {
    static let fileName = "mailfs-store.lock"

    private let lockFile: Int32
    private let directory: Int32

    init(directory url: URL) throws(StoreFileError) {
        let path = url.appendingPathComponent(Self.fileName).path
        lockFile = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lockFile >= 0 else { throw StoreFileError(path: path, kind: .unreadable(String(cString: strerror(errno)))) }
        directory = Foundation.open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else {
            let code = errno
            close(lockFile)
            throw StoreFileError(path: url.path, kind: .unreadable(String(cString: strerror(code))))
        }
    }

    deinit {
        close(lockFile)
        close(directory)
    }

    /// Runs `body`, told whether no other process has the store open, then holds the store
    /// open (shared) until `closing`.
    func opening<T>(_ body: (_ alone: Bool) throws -> T) rethrows -> T {
        try throughGate {
            let alone = flock(lockFile, LOCK_EX | LOCK_NB) == 0
            defer { Self.lock(lockFile, LOCK_SH) }
            return try body(alone)
        }
    }

    /// Runs `body`, told whether no other process has the store open, then lets go.
    func closing<T>(_ body: (_ alone: Bool) throws -> T) rethrows -> T {
        try throughGate {
            let alone = flock(lockFile, LOCK_EX | LOCK_NB) == 0
            defer { flock(lockFile, LOCK_UN) }
            return try body(alone)
        }
    }

    private func throughGate<T>(_ body: () throws -> T) rethrows -> T {
        Self.lock(directory, LOCK_EX)
        defer { flock(directory, LOCK_UN) }
        return try body()
    }

    /// Waits for the lock; a signal only makes it wait again.
    private static func lock(_ fd: Int32, _ operation: Int32) {
        while flock(fd, operation) != 0 && errno == EINTR {}
    }
}
