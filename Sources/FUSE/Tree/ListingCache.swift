import Synchronization

/// Directory listings built so far, bounded so `find` over a large account cannot grow
/// the mount without limit. Every directory ever listed is remembered (an inode number
/// each) so a store change can still tell the kernel its cached listing is stale.
final class ListingCache: Sendable {
    private struct State {
        var listings: [Inode: Listing] = [:]
        var entryCount = 0
        var listed: Set<Inode> = []
    }

    /// About 200 bytes an entry: 200,000 entries is ~40 MB at most.
    static let maxEntries = 200_000
    private let state = Mutex(State())

    func listing(_ inode: Inode) -> Listing? {
        state.withLock { $0.listings[inode] }
    }

    func store(_ listing: Listing, for inode: Inode) {
        state.withLock { state in
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
        }
    }

    /// Drops one directory's listing after a change made through the mount itself, so the
    /// next `ls` sees it without waiting for the store watcher; returns what it held.
    @discardableResult
    func forget(_ inode: Inode) -> Listing? {
        state.withLock { state in
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
                state.listings.removeAll(keepingCapacity: true)
                state.entryCount = 0
                state.listed.removeAll(keepingCapacity: true)
            }
            return state.listed.map { ($0, state.listings[$0]) }
        }
    }
}
