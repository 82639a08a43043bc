import FUSE
import Foundation
import Store
import Synchronization

/// Gives memory back once the mount has gone quiet: a `find` or `grep -r` over a large
/// account leaves SQLite page caches and freed heap that glibc keeps for reuse, and a
/// mount sits idle most of its life. When a burst of
/// FUSE requests has been followed by `quiet` seconds without one, it releases the
/// store's connection memory and the tree's content sources, and asks glibc to return
/// free pages (docs/DECISIONS.md, "Memory when idle"). The listings and attributes the
/// tree keeps stay: they make the next walk fast, and they are bounded.
final class IdleMemoryRelease: Sendable {
    private let session: FuseSession
    private let store: MailStore
    private let tree: MailTree
    private let quiet: TimeInterval
    private let running = Mutex(false)
    /// Signalled when the thread has ended: `stop` waits for it, since a release after
    /// the store closed would use closed connections.
    private let ended = DispatchSemaphore(value: 0)

    init(session: FuseSession, store: MailStore, tree: MailTree, quiet: TimeInterval = 2) {
        self.session = session
        self.store = store
        self.tree = tree
        self.quiet = quiet
    }

    func start() {
        running.withLock { $0 = true }
        let thread = Thread { [self] in
            var period = QuietPeriod(length: quiet, requestCount: session.requestCount)
            while running.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: quiet / 4)
                if running.withLock({ $0 }), period.burstEnded(requestCount: session.requestCount) { release() }
            }
            ended.signal()
        }
        thread.name = "mailfs-memory-release"
        thread.start()
    }

    /// Ends the thread and waits for it (a quarter of `quiet` at most, plus a release under way).
    func stop() {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
        if wasRunning { ended.wait() }
    }

    private func release() {
        store.releaseMemory()
        tree.releaseMemory()
        _ = glibcMallocTrim(0)
    }
}

/// glibc's malloc_trim: returns free heap pages to the system, from the top of each arena
/// and whole free pages inside it. Not in the Glibc module (malloc.h is not part of it).
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
