import Synchronization

/// Directory listings built so far, bounded so `find` over a large account cannot grow
/// the mount without limit. Every directory ever listed is remembered (an inode number
/// each) so a store change can still tell the kernel its cached listing is stale.
final class ListingCache: Sendable {
    private struct State {
        var listings: [Inode: Listing] = [:]
        var entryCount = 0
        var listed: Set<Inode> = []
        /// Counts drains and forgets: a listing built across one may predate the change
        /// that caused it.
        var generation: UInt64 = 0
    }

    /// About 200 bytes an entry: 200,000 entries is ~40 MB at most.
    static let maxEntries = 200_000
    private let state = Mutex(State())

    func listing(_ inode: Inode) -> Listing? {
        state.withLock { $0.listings[inode] }
    }

    /// The current generation, taken before building a listing to `store`.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Caches a listing built from the store since `generation` was read; false (nothing
    /// cached) when a drain or a forget came in between: the store changed meanwhile, and
    /// caching what may be an older snapshot would keep it until the next change.
    func store(_ listing: Listing, for inode: Inode, builtIn generation: UInt64) -> Bool {
        state.withLock { state in
            guard state.generation == generation else { return false }
            if state.entryCount + listing.entries.count > Self.maxEntries {
                // Dropping everything is simpler than LRU and as good here: listings are
                // rebuilt from the store in milliseconds, only on the next access.
                state.listings.removeAll(keepingCapacity: true)
                state.entryCount = 0
            }
            if let old = state.listings.updateValue(listing, forKey: inode) {
                state.entryCount -= old.entries.count
            }
            state.entryCount += listing.entries.count
            state.listed.insert(inode)
            return true
        }
    }

    /// Drops one directory's listing after a change made through the mount itself, so the
    /// next `ls` sees it without waiting for the store watcher; returns what it held.
    @discardableResult
    func forget(_ inode: Inode) -> Listing? {
        state.withLock { state in
            state.generation &+= 1
            guard let old = state.listings.removeValue(forKey: inode) else { return nil }
            state.entryCount -= old.entries.count
            return old
        }
    }

    /// The directories whose listings are held now.
    func heldDirectories() -> [Inode] {
        state.withLock { Array($0.listings.keys) }
    }

    /// Empties the cache; returns every directory listed so far, with its listing when
    /// it was still held.
    func drain() -> [(inode: Inode, listing: Listing?)] {
        state.withLock { state in
            defer {
                state.generation &+= 1
                state.listings.removeAll(keepingCapacity: true)
                state.entryCount = 0
                state.listed.removeAll(keepingCapacity: true)
            }
            return state.listed.map { ($0, state.listings[$0]) }
        }
    }
}
