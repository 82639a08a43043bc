import Synchronization

/// Where each message or attachment file opened so far gets its bytes, so an open that the
/// kernel sends for a file read before (`grep -r` twice, `cat` of a known message) is
/// answered from memory instead of the store. Emptied on every store change (the store
/// watcher, within 250 ms), like the listings; bounded so a walk over a large account
/// cannot grow the mount: about 100 bytes an entry, 200,000 entries is ~20 MB at most.
final class ContentSourceCache: Sendable {
    static let maxEntries = 200_000
    // GUARDED_BY(sources)
    private let sources = Mutex<[Inode: MailTree.ContentSource]>([:])

    func source(_ inode: Inode) -> MailTree.ContentSource? {
        sources.withLock { $0[inode] }
    }

    func remember(_ source: MailTree.ContentSource, for inode: Inode) {
        sources.withLock { sources in
            // Dropping everything is simpler than LRU, as for listings: one query refills an entry.
            if sources.count >= Self.maxEntries { sources.removeAll(keepingCapacity: true) }
            sources[inode] = source
        }
    }

    func removeAll() {
        sources.withLock { $0.removeAll(keepingCapacity: true) }
    }

    /// Empties the cache and gives its memory back (a mount gone quiet).
    func release() {
        sources.withLock { $0 = [:] }
    }
}
