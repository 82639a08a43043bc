import Synchronization

/// The listing a directory stream pages through, per directory inode.
///
/// mailfs keeps no per-open state for directories (OPENDIR answers ENOSYS, so the kernel
/// never sends OPENDIR or RELEASEDIR again and caches every listing it reads), hence no
/// handle to hang a snapshot on. A stream always starts at offset 0 (the kernel fills its
/// listing cache from the start), so the snapshot is taken there and serves the later
/// offsets of that stream: a listing that changes in the store does not shift names under
/// a reader, and a 10,000-entry folder is not rebuilt for each of its READDIR pages.
/// A change between two pages of one stream is followed by the tree's invalidation, which
/// makes the kernel drop what it cached and list again.
final class ListingSnapshots: Sendable {
    /// Streams in progress at once; beyond that all are dropped (they reload on demand).
    static let limit = 64
    // GUARDED_BY(snapshots)
    private let snapshots = Mutex<[Inode: DirectoryListing]>([:])

    /// The snapshot for a READDIR at `offset`: a new one from `load` at 0 (or when none is
    /// held), else the one the stream started with. `load` runs outside the lock.
    func listing(_ directory: Inode, offset: Int64,
                 load: () throws(FSError) -> DirectoryListing) throws(FSError) -> DirectoryListing {
        if offset > 0, let held = snapshots.withLock({ $0[directory] }) { return held }
        let loaded = try load()
        snapshots.withLock { snapshots in
            if snapshots.count >= Self.limit { snapshots.removeAll(keepingCapacity: true) }
            snapshots[directory] = loaded
        }
        return loaded
    }

    /// The stream reached its end: nothing more will be asked of this snapshot.
    func finished(_ directory: Inode) {
        _ = snapshots.withLock { $0.removeValue(forKey: directory) }
    }
}
