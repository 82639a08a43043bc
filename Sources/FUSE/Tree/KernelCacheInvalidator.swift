/// Tells the kernel that cached entries or attributes are stale, so new mail appears at
/// once despite long cache timeouts. Implemented by the FUSE session.
public protocol KernelCacheInvalidator: Sendable {
    func invalidateEntry(parent: Inode, name: String)
    func invalidateInode(_ inode: Inode)
    /// Drops the cached attributes of `inode` only, keeping its cached contents.
    func invalidateAttributes(_ inode: Inode)
}
