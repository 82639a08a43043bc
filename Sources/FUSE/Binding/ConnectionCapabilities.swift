import CFuse3

/// What mailfs asks of the kernel at INIT, each only if the kernel offers it.
enum ConnectionCapabilities {
    /// - READDIRPLUS, every page (not READDIRPLUS_AUTO, which libfuse asks for by default):
    ///   listings carry the attributes of subdirectories, so `find` and `grep -r` over
    ///   thousands of thread directories send no LOOKUP for each, and of files where the
    ///   reader looks them up, so `ls -l` on a folder of thousands of messages costs no LOOKUP
    ///   per file (`ListingSnapshots.Page`). With AUTO the kernel asked for
    ///   attributes on a listing's first page only, unless its reader had looked up a name.
    /// - PARALLEL_DIROPS: lookups and listings in one directory run concurrently; the tree is
    ///   thread-safe and answers from the local store.
    /// - ASYNC_READ: several reads of one file in flight (readahead); reads are by offset.
    /// - AUTO_INVAL_DATA: a cached page is dropped when a file's mtime or size changes, so a
    ///   generated file that was cached never serves stale bytes after its attributes expire.
    /// Not requested: WRITEBACK_CACHE (outbox writes must reach the tree before close()
    /// returns), SPLICE_* (no gain for small mail files), EXPORT_SUPPORT (no NFS export).
    static let wanted: UInt32 = UInt32(
        FUSE_CAP_READDIRPLUS | FUSE_CAP_PARALLEL_DIROPS
            | FUSE_CAP_ASYNC_READ | FUSE_CAP_AUTO_INVAL_DATA)

    static func negotiate(_ connection: UnsafeMutablePointer<fuse_conn_info>) {
        connection.pointee.want |= wanted & connection.pointee.capable
        connection.pointee.want &= ~UInt32(FUSE_CAP_READDIRPLUS_AUTO)
    }
}
