import FUSE
import Foundation
import Store
import Sync

/// What a mount runs beside the FUSE loop, started once mounted and stopped in one place.
/// `fusermount3 -u`, Ctrl-C, SIGTERM (a service manager stopping the mount) and SIGHUP all
/// end `FuseSession.run`; `MountCommand` then calls `stop`, and `LocationOptions.withStore`
/// closes the store, so every way of stopping leaves the store whole in its file
/// (`MailStore.close`). Only `kill -9` skips it, and the store's log keeps what it holds.
final class MountServices {
    /// How long the accounts' tasks get to end before the store closes under them.
    static let syncStopLimit: TimeInterval = 5

    private let store: MailStore
    private let watcher: StoreWatcher
    private let memoryRelease: IdleMemoryRelease
    private let coordinator: SyncCoordinator?

    /// `coordinator`: the sync engine the tree was built with, started here once mounted.
    init(canonicalMountPoint: String, session: FuseSession, store: MailStore, tree: MailTree,
         coordinator: SyncCoordinator?) throws {
        self.store = store
        watcher = try StoreWatcher(store: store.tree, tree: tree)
        LiveMount.record(canonicalMountPoint: canonicalMountPoint, store: store)
        watcher.start()
        memoryRelease = IdleMemoryRelease(session: session, store: store, tree: tree)
        memoryRelease.start()
        self.coordinator = coordinator
        coordinator?.start()
    }

    /// Stops the writers first (the sync, the outbox, the journal), then the rest.
    func stop() {
        if coordinator?.stop(waitingUpTo: Self.syncStopLimit) == false {
            // A task still at work would meet the store closing under it.
            store.leaveOpen()
            FileHandle.standardError.write(Data(("mailfs: the sync did not stop within \(Int(Self.syncStopLimit)) s: "
                + "the store is left as after a crash (nothing is lost; the next start opens it as it is)\n").utf8))
        }
        memoryRelease.stop()
        watcher.stop()
        LiveMount.removeRecord(store: store)
    }
}
