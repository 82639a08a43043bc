import CFuse3
import Foundation

/// Listings: OPENDIR, READDIR, READDIRPLUS.
extension FuseDispatcher {
    /// mailfs keeps nothing per open directory, so OPENDIR answers ENOSYS: from then on the
    /// kernel opens directories itself (no OPENDIR, no RELEASEDIR: two round trips fewer per
    /// directory for `find` and `grep -r`) and keeps their listings in its page cache
    /// (FOPEN_KEEP_CACHE | FOPEN_CACHE_DIR, its default then) until `invalidateInode`.
    /// The kernel checks the inode is a directory before it asks. ENOSYS goes out raw: through
    /// `FSError` it would become ENOTSUP, which the kernel does not take as "no opendir".
    static func declineOpendir(_ req: fuse_req_t?) {
        guard let req else { return }
        fuse_reply_err(req, ENOSYS)
    }

    /// READDIR (`plus` false) and READDIRPLUS (`plus` true): as many entries from `offset` as
    /// fit in `size` bytes; an empty reply means the end of the listing.
    func readdir(_ req: fuse_req_t, inode: fuse_ino_t, size: Int, offset: off_t, plus: Bool) {
        answer(req) { () throws(FSError) in
            let page = try snapshots.page(Inode(inode), offset: Int64(offset)) { () throws(FSError) in
                DirectoryListing(directory: Inode(inode), children: try filesystem.readdir(Inode(inode)))
            }
            // The kernel asks for a page or a few; the cap only guards against a hostile size.
            // Not zeroed first: libfuse writes every byte it sends, padding included, and
            // the kernel asks once more at the end of every listing.
            let buffer = [CChar](unsafeUninitializedCapacity: min(max(size, 0), 1 << 20)) { buffer, count in
                count = fill(buffer, req: req, from: page.listing, offset: offset, plus: plus,
                             files: plus && page.filesGetAttributes)
            }
            let used = buffer.count
            if used == 0 { snapshots.finished(Inode(inode)) } else { filesystem.sentListingPage(of: Inode(inode)) }
            fuse_reply_buf(req, buffer, used)
        }
    }

    /// Packs entries starting at index `offset`; returns the bytes used. Each entry carries the
    /// index of the next one as its offset (0 is reserved for "from the start"). With `plus`,
    /// subdirectories carry their attributes, and files too when `files`.
    private func fill(_ buffer: UnsafeMutableBufferPointer<CChar>, req: fuse_req_t,
                      from listing: DirectoryListing, offset: off_t, plus: Bool, files: Bool) -> Int {
        guard let base = buffer.baseAddress, offset >= 0, offset < listing.count else { return 0 }
        var used = 0
        for index in Int(offset)..<listing.count {
            let entry = listing.entry(at: index)
            let remaining = buffer.count - used
            let next = off_t(index + 1)
            let needed = entry.name.withCString { name in
                plus ? addPlus(entry, attributes: entry.kind == .directory || files ? entry.attributes : nil,
                               name: name, req: req, to: base + used, remaining, next)
                     : add(entry, name: name, req: req, to: base + used, remaining, next)
            }
            guard needed <= remaining else { break }
            used += needed
        }
        return used
    }

    private func add(_ entry: DirectoryListing.Entry, name: UnsafePointer<CChar>, req: fuse_req_t,
                     to position: UnsafeMutablePointer<CChar>, _ remaining: Int, _ next: off_t) -> Int {
        var buffer = stat()
        buffer.st_ino = ino_t(truncatingIfNeeded: entry.inode)
        buffer.st_mode = entry.kind.typeBits
        return fuse_add_direntry(req, position, remaining, name, &buffer, next)
    }

    /// An entry without attributes ("." and "..", or a file the reader is not expected to
    /// look at) goes out with inode 0 in its entry: the kernel makes no inode for it and
    /// counts no lookup, but the dirent still carries its inode number and type.
    private func addPlus(_ entry: DirectoryListing.Entry, attributes: FileAttributes?, name: UnsafePointer<CChar>,
                         req: fuse_req_t, to position: UnsafeMutablePointer<CChar>, _ remaining: Int,
                         _ next: off_t) -> Int {
        var param: fuse_entry_param
        if let attributes {
            param = self.entry(attributes)
        } else {
            param = fuse_entry_param()
            param.attr.st_ino = ino_t(truncatingIfNeeded: entry.inode)
            param.attr.st_mode = entry.kind.typeBits
        }
        return fuse_add_direntry_plus(req, position, remaining, name, &param, next)
    }
}
