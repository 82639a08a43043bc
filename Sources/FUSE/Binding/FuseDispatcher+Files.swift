import CFuse3
import Foundation

/// File contents: OPEN, READ, WRITE, FLUSH, RELEASE, CREATE.
extension FuseDispatcher {
    func open(_ req: fuse_req_t, inode: fuse_ino_t, info: UnsafeMutablePointer<fuse_file_info>?) {
        answer(req) { () throws(FSError) in
            guard let info else { throw FSError(EIO) }
            let opened = try filesystem.open(Inode(inode), flags: info.pointee.flags)
            describe(opened, in: info)
            // -ENOENT: the open was interrupted and the kernel will never send RELEASE.
            if fuse_reply_open(req, info) == -ENOENT {
                filesystem.release(Inode(inode), handle: opened.handle)
            }
        }
    }

    /// At most `size` bytes go back, whatever the tree returns.
    func read(_ req: fuse_req_t, inode: fuse_ino_t, size: Int, offset: off_t,
              info: UnsafeMutablePointer<fuse_file_info>?) {
        answer(req) { () throws(FSError) in
            guard let info, offset >= 0 else { throw FSError(EINVAL) }
            let bytes = try filesystem.read(Inode(inode), handle: info.pointee.fh,
                                            offset: UInt64(offset), size: max(size, 0))
            let count = min(bytes.count, max(size, 0))
            bytes.withUnsafeBytes { raw in
                _ = fuse_reply_buf(req, raw.baseAddress?.assumingMemoryBound(to: CChar.self), count)
            }
        }
    }

    func write(_ req: fuse_req_t, inode: fuse_ino_t, data: UnsafePointer<CChar>?, size: Int,
               offset: off_t, info: UnsafeMutablePointer<fuse_file_info>?) {
        answer(req) { () throws(FSError) in
            guard let info, offset >= 0, size >= 0 else { throw FSError(EINVAL) }
            let buffer = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
            let written = try filesystem.write(Inode(inode), handle: info.pointee.fh,
                                               offset: UInt64(offset), data: buffer)
            fuse_reply_write(req, min(max(written, 0), buffer.count))
        }
    }

    /// Called on every close() of a descriptor; an error here is what close() returns.
    func flush(_ req: fuse_req_t, inode: fuse_ino_t, info: UnsafeMutablePointer<fuse_file_info>?) {
        answer(req) { () throws(FSError) in
            guard let info else { throw FSError(EIO) }
            try filesystem.flush(Inode(inode), handle: info.pointee.fh)
            fuse_reply_err(req, 0)
        }
    }

    func release(_ req: fuse_req_t, inode: fuse_ino_t, info: UnsafeMutablePointer<fuse_file_info>?) {
        if let info { filesystem.release(Inode(inode), handle: info.pointee.fh) }
        fuse_reply_err(req, 0)
    }

    func create(_ req: fuse_req_t, parent: fuse_ino_t, name cName: UnsafePointer<CChar>?,
                info: UnsafeMutablePointer<fuse_file_info>?) {
        answer(req) { () throws(FSError) in
            guard let info else { throw FSError(EIO) }
            let name = try newName(cName)
            let (attributes, opened) = try filesystem.create(parent: Inode(parent), name: name,
                                                             flags: info.pointee.flags)
            var entry = entry(try checked(attributes))
            describe(opened, in: info)
            if fuse_reply_create(req, &entry, info) == -ENOENT {
                filesystem.release(attributes.inode, handle: opened.handle)
            }
        }
    }

    private func describe(_ opened: OpenedFile, in info: UnsafeMutablePointer<fuse_file_info>) {
        info.pointee.fh = opened.handle
        info.pointee.keep_cache = opened.keepCache ? 1 : 0
        info.pointee.direct_io = opened.directIO ? 1 : 0
        info.pointee.noflush = opened.flushes ? 0 : 1
    }
}
