import CFuse3
import Foundation
import Synchronization

/// Ends the loop once its exit flag is set.
///
/// libfuse's signal handler and `fuse_session_exit` only set a flag. The receiver sleeps in
/// read(/dev/fuse) and looks at it after its next request, and a signal may be delivered
/// to any thread of the process, not one in the loop, so nothing may come to wake it.
/// The waker polls the flag and, once it is set, sends a STATFS through the mount (the
/// kernel never caches those): the receiver wakes, answers, sees the flag and the loop ends.
final class LoopWaker: Sendable {
    private static let pollInterval: useconds_t = 50_000

    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(session: SessionPointer, mountPoint: String) {
        let thread = Thread { [self] in
            watch(session, mountPoint: mountPoint)
            finished.signal()
        }
        thread.name = "mailfs-fuse-waker"
        thread.start()
    }

    private func watch(_ session: SessionPointer, mountPoint: String) {
        while !stopped.load(ordering: .acquiring) {
            if fuse_session_exited(session.raw) != 0 {
                var report = statvfs()
                _ = statvfs(mountPoint, &report)
            }
            usleep(Self.pollInterval)
        }
    }

    /// Stops polling; the thread may still be inside one STATFS.
    func stop() {
        stopped.store(true, ordering: .releasing)
    }

    /// Waits for the thread to end: after this the session pointer is no longer used.
    func join() {
        finished.wait()
    }
}
