import CFuse3
import Foundation

/// The `fuse_lowlevel_ops` table. Each entry is a C function that captures nothing and
/// forwards to the request's `FuseDispatcher`. FORGET goes to the filesystem, which keeps
/// reference counts only for inodes it cannot compute again (search directories).
func makeLowLevelOperations() -> fuse_lowlevel_ops {
    var ops = fuse_lowlevel_ops()
    ops.`init` = { userdata, connection in
        guard let connection else { return }
        ConnectionCapabilities.negotiate(connection)
    }
    ops.lookup = { req, parent, name in
        FuseDispatcher.serve(req) { $0.lookup($1, parent: parent, name: name) }
    }
    ops.forget = { req, inode, lookups in
        FuseDispatcher.forget(req, [(inode, lookups)])
    }
    ops.forget_multi = { req, count, forgets in
        FuseDispatcher.forget(req, UnsafeBufferPointer(start: forgets, count: count).map { ($0.ino, $0.nlookup) })
    }
    ops.getattr = { req, inode, _ in
        FuseDispatcher.serve(req) { $0.getattr($1, inode: inode) }
    }
    ops.setattr = { req, inode, attributes, changes, _ in
        FuseDispatcher.serve(req) { $0.setattr($1, inode: inode, attributes: attributes, changes: changes) }
    }
    ops.statfs = { req, _ in FuseDispatcher.serve(req) { $0.statfs($1) } }
    addDirectoryOperations(to: &ops)
    addFileOperations(to: &ops)
    addNameOperations(to: &ops)
    addXattrOperations(to: &ops)
    return ops
}

private func addDirectoryOperations(to ops: inout fuse_lowlevel_ops) {
    ops.opendir = { req, _, _ in FuseDispatcher.declineOpendir(req) }
    ops.readdir = { req, inode, size, offset, _ in
        FuseDispatcher.serve(req) { $0.readdir($1, inode: inode, size: size, offset: offset, plus: false) }
    }
    ops.readdirplus = { req, inode, size, offset, _ in
        FuseDispatcher.serve(req) { $0.readdir($1, inode: inode, size: size, offset: offset, plus: true) }
    }
}

private func addFileOperations(to ops: inout fuse_lowlevel_ops) {
    ops.open = { req, inode, info in
        FuseDispatcher.serve(req) { $0.open($1, inode: inode, info: info) }
    }
    ops.read = { req, inode, size, offset, info in
        FuseDispatcher.serve(req) { $0.read($1, inode: inode, size: size, offset: offset, info: info) }
    }
    ops.write = { req, inode, data, size, offset, info in
        FuseDispatcher.serve(req) {
            $0.write($1, inode: inode, data: data, size: size, offset: offset, info: info)
        }
    }
    ops.flush = { req, inode, info in
        FuseDispatcher.serve(req) { $0.flush($1, inode: inode, info: info) }
    }
    ops.release = { req, inode, info in
        FuseDispatcher.serve(req) { $0.release($1, inode: inode, info: info) }
    }
    ops.create = { req, parent, name, _, info in
        FuseDispatcher.serve(req) { $0.create($1, parent: parent, name: name, info: info) }
    }
}

private func addNameOperations(to ops: inout fuse_lowlevel_ops) {
    ops.unlink = { req, parent, name in
        FuseDispatcher.serve(req) { $0.unlink($1, parent: parent, name: name) }
    }
    ops.rename = { req, parent, name, newParent, newName, flags in
        FuseDispatcher.serve(req) {
            $0.rename($1, parent: parent, name: name, newParent: newParent, newName: newName, flags: flags)
        }
    }
    ops.mkdir = { req, parent, name, _ in
        FuseDispatcher.serve(req) { $0.mkdir($1, parent: parent, name: name) }
    }
    ops.rmdir = { req, parent, name in
        FuseDispatcher.serve(req) { $0.rmdir($1, parent: parent, name: name) }
    }
    ops.symlink = { req, _, _, _ in FuseDispatcher.refuse(req) }
    ops.link = { req, _, _, _ in FuseDispatcher.refuse(req) }
    ops.mknod = { req, _, _, _, _ in FuseDispatcher.refuse(req) }
}

private func addXattrOperations(to ops: inout fuse_lowlevel_ops) {
    ops.getxattr = { req, inode, name, size in
        FuseDispatcher.serve(req) { $0.getxattr($1, inode: inode, name: name, size: size) }
    }
    ops.listxattr = { req, inode, size in
        FuseDispatcher.serve(req) { $0.listxattr($1, inode: inode, size: size) }
    }
    ops.setxattr = { req, inode, name, value, size, _ in
        FuseDispatcher.serve(req) { $0.setxattr($1, inode: inode, name: name, value: value, size: size) }
    }
    ops.removexattr = { req, _, _ in FuseDispatcher.refuseRemovexattr(req) }
}
