import Synchronization

/// Directory listings built so far, and the attributes of the messages, threads and
/// attachments they list, bounded so `find` over a large account cannot grow the mount
/// without limit. Every directory ever listed is remembered (an inode number each) so a
/// store change can still tell the kernel its cached listing is stale.
///
/// Attributes are kept because the kernel asks for them again after every READ or READDIR
/// it sends (it drops a file's atime, and with it the attributes it caches), so the second
/// `stat` of a file or directory just read would otherwise cost a store query. Any change
/// to the store, or to the tree through the mount, drops them all with the listings.
///
/// It also remembers when the kernel was last sent each directory's entries and each
/// node's attributes (`noteServed`): the kernel trusts what it was sent only for the
/// mount's timeouts, so a store change need correct only what was sent more recently
/// (docs/DECISIONS.md, "A store change rebuilds only the listings the kernel may still trust").
final class ListingCache: Sendable {
    private struct State {
        var listings: [Inode: Listing] = [:]
        var entryCount = 0
        var listed: Set<Inode> = []
        var attributes: [Inode: FileAttributes] = [:]
        /// Counts drains and forgets: a listing built across one may predate the change
        /// that caused it.
        var generation: UInt64 = 0
        /// When the kernel was last sent entries of each directory (a READDIR page, a
        /// LOOKUP in it) or attributes of each node (GETATTR), in `Tick`s; pruned at every
        /// drain. A second `grep -r` sends a GETATTR for every file the first one read.
        var servedAt: [Inode: Tick] = [:]
        /// `servedAt` was full and refused a node since the last drain: every held listing
        /// counts as served recently at the next one.
        var servedOverflowed = false

        mutating func forgetServed(before oldest: Tick) {
            servedAt = servedAt.filter { $0.value >= oldest }
        }

        /// Bounded like the listings, and emptied the same way when full.
        mutating func rememberAttributes(_ new: FileAttributes) {
            if attributes.count >= ListingCache.maxEntries { attributes.removeAll(keepingCapacity: true) }
            attributes[new.inode] = new
        }
    }

    /// About 200 bytes an entry: 200,000 entries is ~40 MB at most.
    static let maxEntries = 200_000
    private let state = Mutex(State())

    /// Tenths of a second since the cache was made: a third of the memory of an `Instant`
    /// for each of the up to 200,000 nodes `servedAt` remembers.
    typealias Tick = UInt32
    private let start = ContinuousClock.now

    /// The tick of `instant`, rounded down (0 for one before the cache was made).
    private func tick(_ instant: ContinuousClock.Instant) -> Tick {
        let elapsed = (instant - start).components
        guard elapsed.seconds >= 0 else { return 0 }
        return Tick(clamping: elapsed.seconds * 10 + elapsed.attoseconds / 100_000_000_000_000_000)
    }

    /// The kernel was sent entries of the directory `inode` or attributes of the node.
    func noteServed(_ inode: Inode, at now: ContinuousClock.Instant = .now) {
        let now = tick(now)
        state.withLock { state in
            if state.servedAt.count >= Self.maxEntries && state.servedAt[inode] == nil {
                state.servedOverflowed = true
            } else {
                state.servedAt[inode] = now
            }
        }
    }

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
            // A first listing sizes the table once: growing it entry by entry rehashed it a
            // dozen times for a 10,000-message folder. Later ones let it grow: their
            // entries often repeat held ones (search directories, threads of the same
            // messages), and reserving for all of them grew it to several times its rows.
            if state.attributes.isEmpty {
                state.attributes.reserveCapacity(min(listing.entries.count, Self.maxEntries))
            }
            for entry in listing.entries where !entry.attributesAtLookup && Self.keepsAttributes(of: entry.attributes) {
                state.rememberAttributes(entry.attributes)
            }
            return true
        }
    }

    /// The attributes last listed or looked up for a message, thread, attachment file or
    /// attachments/<message>/ directory.
    func attributes(_ inode: Inode) -> FileAttributes? {
        state.withLock { $0.attributes[inode] }
    }

    /// Keeps attributes read from the store since `generation` was read (see `store`).
    func remember(_ attributes: FileAttributes, builtIn generation: UInt64) {
        guard Self.keepsAttributes(of: attributes) else { return }
        state.withLock { state in
            guard state.generation == generation else { return }
            state.rememberAttributes(attributes)
        }
    }

    /// Drops one file's attributes (a download told its exact size).
    func forgetAttributes(of inode: Inode) {
        state.withLock { state in
            state.generation &+= 1
            state.attributes.removeValue(forKey: inode)
        }
    }

    /// Only nodes whose attributes come from the store by id and change only with it;
    /// never volatile ones (`.status`, files being written).
    private static func keepsAttributes(of attributes: FileAttributes) -> Bool {
        !attributes.isVolatile && Node(inode: attributes.inode)?.attributesAreKept == true
    }

    /// Drops one directory's listing after a change made through the mount itself, so the
    /// next `ls` sees it without waiting for the store watcher; returns what it held.
    @discardableResult
    func forget(_ inode: Inode) -> Listing? {
        state.withLock { state in
            state.generation &+= 1
            // A change through the mount (cp, mv, rm) may change link counts anywhere.
            state.attributes.removeAll(keepingCapacity: true)
            guard let old = state.listings.removeValue(forKey: inode) else { return nil }
            state.entryCount -= old.entries.count
            return old
        }
    }

    /// The directories whose listings are held now.
    func heldDirectories() -> [Inode] {
        state.withLock { Array($0.listings.keys) }
    }

    /// Forgets the nodes last served before `instant`, which no drain would count as recent.
    func forgetServed(before instant: ContinuousClock.Instant) {
        let oldest = tick(instant)
        state.withLock { $0.forgetServed(before: oldest) }
    }

    /// What a store change must correct in the kernel (`drain`).
    struct Drained {
        /// Every directory listed since the last drain, with its listing when the kernel
        /// was sent some of it recently: only then may the kernel still trust names or
        /// attributes from it that the change made stale.
        var directories: [(inode: Inode, listing: Listing?)]
        /// The nodes whose entries or attributes the kernel was sent recently.
        var served: [Inode]
    }

    /// Empties the cache. "Recently" is since `recent`; nil counts every held listing as
    /// recent (no kernel attached: nothing is known of what it trusts).
    func drain(servedSince recent: ContinuousClock.Instant?) -> Drained {
        state.withLock { state in
            defer {
                state.generation &+= 1
                state.listings.removeAll(keepingCapacity: true)
                state.entryCount = 0
                state.listed.removeAll(keepingCapacity: true)
                state.attributes.removeAll(keepingCapacity: true)
            }
            let everyListing = recent == nil || state.servedOverflowed
            // Rounded down on both sides: a node served in the same tenth counts as recent.
            if let recent { state.forgetServed(before: tick(recent)) }
            state.servedOverflowed = false
            let directories = state.listed.map { inode in
                (inode, everyListing || state.servedAt[inode] != nil ? state.listings[inode] : nil)
            }
            return Drained(directories: directories, served: Array(state.servedAt.keys))
        }
    }
}
