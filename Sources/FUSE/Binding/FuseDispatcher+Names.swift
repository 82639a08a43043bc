import CFuse3
import Foundation

/// RENAME_NOREPLACE from <linux/fs.h>, which Glibc does not export to Swift.
private let renameNoReplace: UInt32 = 1

/// Changes to names: UNLINK, RENAME, and the operations mail has no use for.
extension FuseDispatcher {
    func unlink(_ req: fuse_req_t, parent: fuse_ino_t, name cName: UnsafePointer<CChar>?) {
        answer(req) { () throws(FSError) in
            try filesystem.unlink(parent: Inode(parent), name: try name(cName))
            fuse_reply_err(req, 0)
        }
    }

    /// renameat2 flags: RENAME_NOREPLACE (what `mv` tries first) is honoured by looking the
    /// target up first; RENAME_EXCHANGE has no meaning for mail: EINVAL.
    func rename(_ req: fuse_req_t, parent: fuse_ino_t, name cName: UnsafePointer<CChar>?,
                newParent: fuse_ino_t, newName cNewName: UnsafePointer<CChar>?, flags: UInt32) {
        answer(req) { () throws(FSError) in
            let name = try name(cName)
            let newName = try newName(cNewName)
            guard flags & ~renameNoReplace == 0 else { throw FSError(EINVAL) }
            if flags & renameNoReplace != 0, targetExists(newParent, newName) {
                throw FSError(EEXIST)
            }
            try filesystem.rename(parent: Inode(parent), name: name,
                                  newParent: Inode(newParent), newName: newName)
            fuse_reply_err(req, 0)
        }
    }

    /// mkdir and rmdir: folders on the server.
    func mkdir(_ req: fuse_req_t, parent: fuse_ino_t, name cName: UnsafePointer<CChar>?) {
        answer(req) { () throws(FSError) in
            var entry = entry(try checked(filesystem.mkdir(parent: Inode(parent), name: try name(cName))))
            fuse_reply_entry(req, &entry)
        }
    }

    func rmdir(_ req: fuse_req_t, parent: fuse_ino_t, name cName: UnsafePointer<CChar>?) {
        answer(req) { () throws(FSError) in
            try filesystem.rmdir(parent: Inode(parent), name: try name(cName))
            fuse_reply_err(req, 0)
        }
    }

    private func targetExists(_ parent: fuse_ino_t, _ name: String) -> Bool {
        guard let attributes = try? filesystem.lookup(parent: Inode(parent), name: name) else { return false }
        // The kernel never sees this answer: the reference the lookup counted goes back.
        filesystem.forget(attributes.inode, lookups: 1)
        return true
    }

    /// symlink, link and mknod are not part of the mail tree. Left unset,
    /// libfuse would answer ENOSYS ("Function not implemented"); EPERM reads better.
    static func refuse(_ req: fuse_req_t?) {
        guard let req else { return }
        fuse_reply_err(req, EPERM)
    }
}
