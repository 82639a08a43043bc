import Foundation
import Store
import Synchronization

/// Keeping the kernel's caches true to the store. Listings the kernel may still trust are
/// rebuilt and the kernel is told which names vanished (their cached dentries would
/// otherwise live for the entry timeout) and that every listed directory changed. New names
/// need no notice: lookups that fail are answered without a negative cache entry.
///
/// Telling the kernel is not enough on its own: a READDIR answered just before the change
/// may reach the kernel's listing cache after the notice dropped it. The kernel throws a
/// cached listing away when the directory's mtime is no longer the one it had when the
/// cache began to fill, so directory mtimes move on first (`listingsChangedAt`), after the
/// tree's own listings are dropped (whoever sees the new mtime lists the new contents),
/// and the notices go out last.
extension MailTree {
    /// Listings the kernel was last sent longer ago than it trusts them are dropped, not
    /// rebuilt: after a `find` over a large account, rebuilding every listing it read cost
    /// the mount's CPU at each new message for as long as it ran. The kernel asks again for
    /// their names and attributes at the next use, and their cached pages are dropped below.
    public func storeDidChange() {
        contentSources.removeAll()
        conversationsDidChange()
        let recent = kernel.withLock { $0?.trust }.map { ContinuousClock.now - $0 }
        let drained = listings.drain(servedSince: recent)
        markListingsChanged()
        refresh(drained.directories, served: drained.served)
    }

    /// Once a minute. Relative dates move with the clock (`date:today` at midnight): search
    /// directories whose query reads it are listed anew, as after a store change. And what
    /// the tree noted of nodes sent to the kernel longer ago than it trusts them is dropped:
    /// no store change would count them, and a mount left alone need not keep them.
    public func clockDidTick() {
        if let trust = kernel.withLock({ $0?.trust }) { listings.forgetServed(before: .now - trust) }
        let stale = listings.heldDirectories().filter { inode in
            guard case .directory(let directory)? = Node(inode: inode),
                  let search = try? searchDirectory(directory) else { return false }
            return search.query.readsClock
        }
        guard !stale.isEmpty else { return }
        let dropped = stale.map { (inode: $0, listing: listings.forget($0)) }
        markListingsChanged()
        refresh(dropped)
    }

    /// Moves directory mtimes on, at least a microsecond (a `Date` keeps that much), so two
    /// changes within one clock tick still differ.
    private func markListingsChanged() {
        listingsChangedAt.withLock { $0 = max(Date(), $0.addingTimeInterval(0.000_001)) }
    }

    /// Tells the kernel that directories whose listings were dropped changed, and which of
    /// their names vanished (a vanished name would otherwise stay for the entry timeout) and
    /// which entries' attributes changed (a link count, a size): the kernel keeps a file's
    /// attributes for the attribute timeout unless told, and a listing read again carries
    /// them only to a reader that looks files up (`ListingSnapshots`). The attributes of
    /// the nodes in `served` (sent by GETATTR, whatever listing they belong to) are
    /// dropped whether they changed or not.
    private func refresh(_ dropped: [(inode: Inode, listing: Listing?)], served: [Inode] = []) {
        guard let kernel = invalidator else { return }
        var changed = Set(served)
        let first = dropped.filter { Self.refreshesFirst($0.inode) }
        // In inode order, which is id order within a kind: the batches then read the
        // store's pages in order, not all over its indexes.
        let then = dropped.filter { !Self.refreshesFirst($0.inode) }.sorted { $0.inode < $1.inode }
        for (inode, old) in first {
            changed.formUnion(reconcile(inode, old, kernel))
        }
        for start in stride(from: 0, to: then.count, by: Self.refreshBatch) {
            let batch = then[start..<min(start + Self.refreshBatch, then.count)]
            // Threads and attachments/<message>/ directories are rebuilt a batch to a query,
            // as a walk reads them ahead; one that cannot be is rebuilt alone below.
            let rebuilt = batch.filter { $0.listing != nil }.map(\.inode)
            try? loadListings(rebuilt[...])
            for (inode, old) in batch { changed.formUnion(reconcile(inode, old, kernel)) }
        }
        changed.subtract(dropped.lazy.map(\.inode))
        for inode in changed { kernel.invalidateAttributes(inode) }
    }

    /// Thread and attachments/<message>/ listings rebuilt with one query: after a walk, a
    /// change rebuilds thousands of them.
    static let refreshBatch = 256

    /// Tells the kernel that `inode`'s listing changed and which of its names vanished;
    /// returns the entries whose attributes differ from those of the `old` listing.
    private func reconcile(_ inode: Inode, _ old: Listing?, _ kernel: any KernelCacheInvalidator) -> [Inode] {
        defer { kernel.invalidateInode(inode) }
        guard let old else { return [] }
        let (vanished, differing) = old.changes(to: try? listing(of: inode))
        for name in vanished { kernel.invalidateEntry(parent: inode, name: name) }
        return differing
    }

    /// Folders and the other few directories come before the many thread and
    /// attachments/<message>/ ones: after a `find`, new mail in the inbox would otherwise
    /// wait behind thousands of those to be shown.
    private static func refreshesFirst(_ inode: Inode) -> Bool {
        guard case .directory(let directory)? = Node(inode: inode) else { return true }
        switch directory {
        case .thread, .attachmentMessage:
            return false
        case .root, .unifiedInbox, .account, .folder, .threads, .archive, .outbox, .attachments, .searches,
             .unifiedSearches, .savedSearch, .search:
            return true
        }
    }
}

/// Keeps the tree true to the store. This process's own commits (the sync engine storing
/// new mail) wake it at once; commits of other processes (`mailfs import` beside the mount)
/// are seen by polling `PRAGMA data_version` on a dedicated connection, cheap enough for
/// 4 Hz, which keeps `.status` and listings within the 500 ms of NFR-SYNC-09. Either way the
/// tree is refreshed at most once per `interval`: a sync that commits batch after batch
/// costs no more than before, and the first commit after a quiet spell shows at once.
/// Once a minute it also refreshes the search directories whose queries read the clock.
public final class StoreWatcher: Sendable {
    private let monitor: ChangeMonitor
    private let tree: MailTree
    private let interval: TimeInterval
    private let running = Mutex(false)

    public init(store: TreeStore, tree: MailTree, interval: TimeInterval = 0.25) throws {
        monitor = try store.makeChangeMonitor()
        self.tree = tree
        self.interval = interval
    }

    public func start() {
        running.withLock { $0 = true }
        let thread = Thread { [self] in
            var lastTick = Date()
            var lastRefresh = Date.distantPast
            while running.withLock({ $0 }) {
                monitor.waitForCommit(timeout: interval)
                let sinceRefresh = Date().timeIntervalSince(lastRefresh)
                if sinceRefresh < interval { Thread.sleep(forTimeInterval: interval - sinceRefresh) }
                if monitor.hasChanged() {
                    lastRefresh = Date()
                    tree.storeDidChange()
                }
                // Once a minute, for searches with relative dates.
                if Date().timeIntervalSince(lastTick) >= 60 {
                    lastTick = Date()
                    tree.clockDidTick()
                }
            }
        }
        thread.name = "mailfs-store-watcher"
        thread.start()
    }

    public func stop() {
        running.withLock { $0 = false }
    }
}
