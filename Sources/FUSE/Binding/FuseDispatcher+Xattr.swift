import CFuse3
import Foundation

/// Extended attributes (`user.mailfs.*`), with the size probe protocol of getxattr(2):
/// a call with size 0 asks for the length only; a buffer too small is ERANGE.
extension FuseDispatcher {
    /// Names outside `user.` (security.selinux, system.posix_acl_access, ...) are EOPNOTSUPP
    /// here, without the tree: `ls -l` asks for them on every file, and this errno (unlike
    /// ENODATA) makes coreutils remember per device that the file system has none, so it
    /// asks once per run instead of twice per file.
    func getxattr(_ req: fuse_req_t, inode: fuse_ino_t, name cName: UnsafePointer<CChar>?, size: Int) {
        answer(req) { () throws(FSError) in
            let name = try name(cName, invalid: ENODATA)
            guard name.hasPrefix("user.") else { throw FSError(EOPNOTSUPP) }
            let value = try filesystem.getxattr(Inode(inode), name: name)
            try replyXattr(req, value, size: size)
        }
    }

    /// The names, each followed by a NUL, as listxattr(2) returns them.
    func listxattr(_ req: fuse_req_t, inode: fuse_ino_t, size: Int) {
        answer(req) { () throws(FSError) in
            let names = try filesystem.listxattr(Inode(inode))
            var list: [UInt8] = []
            for name in names where !name.isEmpty && !name.utf8.contains(0) {
                list.append(contentsOf: name.utf8)
                list.append(0)
            }
            try replyXattr(req, list, size: size)
        }
    }

    /// XATTR_CREATE/XATTR_REPLACE are left to the tree, which knows which names it accepts.
    func setxattr(_ req: fuse_req_t, inode: fuse_ino_t, name cName: UnsafePointer<CChar>?,
                  value: UnsafePointer<CChar>?, size: Int) {
        answer(req) { () throws(FSError) in
            let name = try name(cName, invalid: EINVAL)
            let bytes = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : max(size, 0))
            try filesystem.setxattr(Inode(inode), name: name, value: Array(bytes))
            fuse_reply_err(req, 0)
        }
    }

    /// Our attributes are state the tree computes (outbox state, flags); none can be removed.
    static func refuseRemovexattr(_ req: fuse_req_t?) {
        guard let req else { return }
        fuse_reply_err(req, ENOTSUP)
    }

    private func replyXattr(_ req: fuse_req_t, _ value: [UInt8], size: Int) throws(FSError) {
        if size == 0 {
            fuse_reply_xattr(req, value.count)
            return
        }
        guard value.count <= size else { throw FSError(ERANGE) }
        value.withUnsafeBytes { raw in
            _ = fuse_reply_buf(req, raw.baseAddress?.assumingMemoryBound(to: CChar.self), value.count)
        }
    }
}
