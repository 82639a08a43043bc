import CFuse3
import Foundation
import Synchronization

/// A `struct fuse_session *`. Raw pointers are not Sendable; libfuse's notify and exit
/// functions may be called from any thread, and every use is ordered by a lock of ours
/// (`FuseSession`'s phase, `Invalidator`'s attachment) so none outlives the session.
struct SessionPointer: @unchecked Sendable {
    let raw: OpaquePointer
}

/// Tells the kernel to forget what it cached, when the store changes under a mounted
/// directory (new mail while mounted). With long timeouts, negative entries and cached
/// listings, a new message stays invisible (even ENOENT) until both calls are made:
///
///     invalidator.invalidateEntry(parent: inbox, name: newName)  // the cached "not found"
///     invalidator.invalidateInode(inbox)                          // the cached listing
///
/// Usable from any thread, before mount and after unmount (then it does nothing). Create it
/// before the tree and hand it to `FuseSession.init`, or use `FuseSession.invalidator`.
///
/// Do not call `invalidateEntry` from inside a request on the same directory (for example
/// from `create` in that directory): the kernel holds the directory's lock for that request
/// and the notification waits for it, a deadlock libfuse documents. `invalidateInode` is safe.
public final class Invalidator: Sendable {
    // GUARDED_BY(session): nil before mount and after the session is torn down.
    private let session = Mutex<SessionPointer?>(nil)

    public init() {}

    func attach(_ pointer: SessionPointer) {
        session.withLock { $0 = pointer }
    }

    /// Waits for a notification in progress, so the session can be destroyed after.
    func detach() {
        session.withLock { $0 = nil }
    }

    /// Drops the kernel's cached answer for `name` in `parent`, positive or negative.
    /// The kernel answering ENOENT (nothing cached) is the normal case and is not an error.
    public func invalidateEntry(parent: Inode, name: String) {
        session.withLock { session in
            guard let session else { return }
            name.withCString { cName in
                _ = fuse_lowlevel_notify_inval_entry(session.raw, fuse_ino_t(parent), cName, strlen(cName))
            }
        }
    }

    /// Drops the cached attributes and the cached contents (file pages or directory listing)
    /// of `inode`.
    public func invalidateInode(_ inode: Inode) {
        session.withLock { session in
            guard let session else { return }
            _ = fuse_lowlevel_notify_inval_inode(session.raw, fuse_ino_t(inode), 0, 0)
        }
    }

    /// Drops the cached attributes of `inode` only (a negative offset): its pages stay.
    public func invalidateAttributes(_ inode: Inode) {
        session.withLock { session in
            guard let session else { return }
            _ = fuse_lowlevel_notify_inval_inode(session.raw, fuse_ino_t(inode), -1, 0)
        }
    }
}
