import CFuse3
import Foundation

/// Names and attributes: LOOKUP, GETATTR, SETATTR, STATFS.
extension FuseDispatcher {
    /// A missing name is answered as a negative entry (inode 0 with a timeout) so the kernel
    /// remembers it; `Invalidator.invalidateEntry` clears that when the name appears. An
    /// answer the kernel did not take (the request was interrupted) gives its reference back.
    func lookup(_ req: fuse_req_t, parent: fuse_ino_t, name cName: UnsafePointer<CChar>?) {
        answer(req) { () throws(FSError) in
            do throws(FSError) {
                let name = try name(cName)
                snapshots.noteLookup(in: Inode(parent))
                let attributes = try checked(filesystem.lookup(parent: Inode(parent), name: name))
                if attributes.kind != .directory { snapshots.noteFileLookup() }
                var entry = entry(attributes)
                if fuse_reply_entry(req, &entry) != 0 { filesystem.forget(Inode(entry.ino), lookups: 1) }
            } catch where error.errno == ENOENT && options.negativeEntryTimeout > 0 {
                var negative = fuse_entry_param()
                negative.entry_timeout = options.negativeEntryTimeout
                fuse_reply_entry(req, &negative)
            }
        }
    }

    func getattr(_ req: fuse_req_t, inode: fuse_ino_t) {
        answer(req) { () throws(FSError) in
            let attributes = try checked(filesystem.getattr(Inode(inode)))
            var buffer = attributes.statBuffer(owner: owner)
            fuse_reply_attr(req, &buffer, attributeTimeout(attributes))
        }
    }

    /// truncate and utimens (`touch`, `touch -d`) reach the tree; chmod/chown do not exist
    /// on mail (everything belongs to the mounting user): EPERM. Access times are not kept,
    /// so an atime-only change just answers the current attributes.
    func setattr(_ req: fuse_req_t, inode: fuse_ino_t, attributes: UnsafeMutablePointer<stat>?,
                 changes: Int32) {
        answer(req) { () throws(FSError) in
            guard changes & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID) == 0 else {
                throw FSError(EPERM)
            }
            var size: UInt64?
            var modified: Date?
            if changes & FUSE_SET_ATTR_SIZE != 0 {
                guard let attributes, attributes.pointee.st_size >= 0 else { throw FSError(EINVAL) }
                size = UInt64(attributes.pointee.st_size)
            }
            if changes & FUSE_SET_ATTR_MTIME_NOW != 0 {
                modified = Date()
            } else if changes & FUSE_SET_ATTR_MTIME != 0, let attributes {
                modified = Date(attributes.pointee.st_mtim)
            }
            let updated = try checked(filesystem.setattr(Inode(inode), size: size, modified: modified))
            var buffer = updated.statBuffer(owner: owner)
            fuse_reply_attr(req, &buffer, attributeTimeout(updated))
        }
    }

    /// Block counts come from the filesystem holding `spaceReportPath` (the store), so tools
    /// that check free space before writing into outbox/ see the truth; names are NAME_MAX.
    func statfs(_ req: fuse_req_t) {
        var report = statvfs()
        if let path = options.spaceReportPath, statvfs(path, &report) != 0 {
            report = statvfs()
        }
        report.f_namemax = 255
        if report.f_bsize == 0 { report.f_bsize = 4096 }
        if report.f_frsize == 0 { report.f_frsize = report.f_bsize }
        fuse_reply_statfs(req, &report)
    }
}

extension Date {
    init(_ time: timespec) {
        self.init(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }
}
