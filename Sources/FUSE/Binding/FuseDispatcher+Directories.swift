import CFuse3
import Foundation

/// Listings: OPENDIR, READDIR, READDIRPLUS, RELEASEDIR.
extension FuseDispatcher {
    /// The kernel may keep the listing in its page cache (`cache_readdir`) and keep it across
    /// opens (`keep_cache`) until the attribute timeout passes or `invalidateInode` is called.
    func opendir(_ req: fuse_req_t, inode: fuse_ino_t, info: UnsafeMutablePointer<fuse_file_info>?) {
        answer(req) { () throws(FSError) in
            guard let info else { throw FSError(EIO) }
            guard try filesystem.getattr(Inode(inode)).kind == .directory else { throw FSError(ENOTDIR) }
            let handle = directories.open()
            info.pointee.fh = handle
            info.pointee.cache_readdir = 1
            info.pointee.keep_cache = 1
            if fuse_reply_open(req, info) == -ENOENT { directories.close(handle) }
        }
    }

    func releasedir(_ req: fuse_req_t, info: UnsafeMutablePointer<fuse_file_info>?) {
        if let info { directories.close(info.pointee.fh) }
        fuse_reply_err(req, 0)
    }

    /// READDIR (`plus` false) and READDIRPLUS (`plus` true): as many entries from `offset` as
    /// fit in `size` bytes; an empty reply means the end of the listing.
    func readdir(_ req: fuse_req_t, inode: fuse_ino_t, size: Int, offset: off_t,
                 info: UnsafeMutablePointer<fuse_file_info>?, plus: Bool) {
        answer(req) { () throws(FSError) in
            guard let info else { throw FSError(EIO) }
            let listing = try directories.listing(info.pointee.fh) { () throws(FSError) in
                DirectoryListing(directory: Inode(inode), children: try filesystem.readdir(Inode(inode)))
            }
            // The kernel asks for a page or a few; the cap only guards against a hostile size.
            var buffer = [CChar](repeating: 0, count: min(max(size, 0), 1 << 20))
            let used = buffer.withUnsafeMutableBufferPointer { buffer in
                fill(buffer, req: req, from: listing, offset: offset, plus: plus)
            }
            fuse_reply_buf(req, buffer, used)
        }
    }

    /// Packs entries starting at index `offset`; returns the bytes used. Each entry carries the
    /// index of the next one as its offset (0 is reserved for "from the start").
    private func fill(_ buffer: UnsafeMutableBufferPointer<CChar>, req: fuse_req_t,
                      from listing: DirectoryListing, offset: off_t, plus: Bool) -> Int {
        guard let base = buffer.baseAddress, offset >= 0, offset < listing.entries.count else { return 0 }
        var used = 0
        for index in Int(offset)..<listing.entries.count {
            let entry = listing.entries[index]
            let remaining = buffer.count - used
            let next = off_t(index + 1)
            let needed = entry.name.withCString { name in
                plus ? addPlus(entry, name: name, req: req, to: base + used, remaining, next)
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

    /// "." and ".." go out with inode 0 in the entry: no lookup is counted and the kernel
    /// skips them, but the dirent still carries their inode and type.
    private func addPlus(_ entry: DirectoryListing.Entry, name: UnsafePointer<CChar>, req: fuse_req_t,
                         to position: UnsafeMutablePointer<CChar>, _ remaining: Int, _ next: off_t) -> Int {
        var param: fuse_entry_param
        if let attributes = entry.attributes {
            param = self.entry(attributes)
        } else {
            param = fuse_entry_param()
            param.attr.st_ino = ino_t(truncatingIfNeeded: entry.inode)
            param.attr.st_mode = entry.kind.typeBits
        }
        return fuse_add_direntry_plus(req, position, remaining, name, &param, next)
    }
}
