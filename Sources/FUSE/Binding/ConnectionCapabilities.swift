import CFuse3

/// What mailfs asks of the kernel at INIT, each only if the kernel offers it.
enum ConnectionCapabilities {
    /// - READDIRPLUS + READDIRPLUS_AUTO: listings carry attributes, so `ls -l` on a folder of
    ///   thousands of messages costs no LOOKUP per file; AUTO lets the kernel fall back to
    ///   plain READDIR when nobody stats the entries (plain `ls`, `find -name`).
    /// - PARALLEL_DIROPS: lookups and listings in one directory run concurrently; the tree is
    ///   thread-safe and answers from the local store.
    /// - ASYNC_READ: several reads of one file in flight (readahead); reads are by offset.
    /// - AUTO_INVAL_DATA: a cached page is dropped when a file's mtime or size changes, so a
    ///   generated file that was cached never serves stale bytes after its attributes expire.
    /// Not requested: WRITEBACK_CACHE (outbox writes must reach the tree before close()
    /// returns), SPLICE_* (no gain for small mail files), EXPORT_SUPPORT (no NFS export).
    static let wanted: UInt32 = UInt32(
        FUSE_CAP_READDIRPLUS | FUSE_CAP_READDIRPLUS_AUTO | FUSE_CAP_PARALLEL_DIROPS
            | FUSE_CAP_ASYNC_READ | FUSE_CAP_AUTO_INVAL_DATA)

    static func negotiate(_ connection: UnsafeMutablePointer<fuse_conn_info>) {
        connection.pointee.want |= wanted & connection.pointee.capable
    }
}
