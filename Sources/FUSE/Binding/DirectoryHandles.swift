import Glibc
import Synchronization

/// Open directories, keyed by the `fh` handed out at opendir.
///
/// The listing is taken at the first READDIR, not at opendir: with `cache_readdir` the
/// kernel answers repeated listings from its cache and still opens the directory each time,
/// so a snapshot at opendir would read the store for nothing.
final class DirectoryHandles: Sendable {
    private struct State {
        var nextHandle: UInt64 = 1
        // GUARDED_BY(state). nil until the first READDIR on the handle.
        var listings: [UInt64: DirectoryListing?] = [:]
    }

    private let state = Mutex(State())

    func open() -> UInt64 {
        state.withLock { state in
            let handle = state.nextHandle
            state.nextHandle &+= 1
            state.listings[handle] = .some(nil)
            return handle
        }
    }

    /// The handle's snapshot, made with `load` the first time. `load` runs outside the lock
    /// so a large directory does not hold up every other open directory.
    func listing(_ handle: UInt64,
                 load: () throws(FSError) -> DirectoryListing) throws(FSError) -> DirectoryListing {
        let existing: DirectoryListing?? = state.withLock { $0.listings[handle] }
        guard let existing else { throw FSError(EBADF) }
        if let existing { return existing }
        let loaded = try load()
        return state.withLock { state in
            guard let current = state.listings[handle] else { return loaded }
            if let current { return current }
            state.listings[handle] = loaded
            return loaded
        }
    }

    func close(_ handle: UInt64) {
        _ = state.withLock { $0.listings.removeValue(forKey: handle) }
    }
}
