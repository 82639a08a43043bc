import FUSE
import Foundation

/// The write side, only inside outbox/ (everything else keeps the protocol's EROFS).
extension InMemoryFilesystem {
    func create(parent: Inode, name: String, flags: Int32) throws(FSError) -> (FileAttributes, OpenedFile) {
        let attributes = try withWritableDirectory(parent) { state throws(FSError) in
            guard state.nodes[parent]?.children[name] == nil else { throw FSError(EEXIST) }
            let inode = state.nextInode
            state.nextInode += 1
            let attributes = FileAttributes(inode: inode, kind: .regular, permissions: 0o600,
                                            linkCount: 1, size: 0, modified: Date())
            state.nodes[inode] = Node(attributes: attributes)
            state.nodes[parent]?.children[name] = inode
            return attributes
        }
        return (attributes, OpenedFile(handle: attributes.inode + 10_000, keepCache: false, directIO: false))
    }

    func write(_ inode: Inode, handle: UInt64, offset: UInt64, data: UnsafeRawBufferPointer) throws(FSError) -> Int {
        _ = try update(inode) { node throws(FSError) in
            guard offset <= UInt64(node.content.count) else { throw FSError(EINVAL) }
            let start = Int(offset)
            let end = min(node.content.count, start + data.count)
            node.content.replaceSubrange(start..<end, with: data)
        }
        return data.count
    }

    func flush(_ inode: Inode, handle: UInt64) throws(FSError) {
        guard isWritable(inode) else { return }
        let refused = try withWritableDirectory(Self.outbox) { state in
            state.nodes[Self.outbox]?.children["refused.txt"] == inode
        }
        if refused { throw FSError(EACCES) }
    }

    func unlink(parent: Inode, name: String) throws(FSError) {
        try withWritableDirectory(parent) { state throws(FSError) in
            guard let inode = state.nodes[parent]?.children.removeValue(forKey: name) else {
                throw FSError(ENOENT)
            }
            state.nodes[inode] = nil
        }
    }

    func rename(parent: Inode, name: String, newParent: Inode, newName: String) throws(FSError) {
        try withWritableDirectory(parent) { state throws(FSError) in
            guard state.nodes[newParent]?.writable == true else { throw FSError(EXDEV) }
            guard let inode = state.nodes[parent]?.children.removeValue(forKey: name) else {
                throw FSError(ENOENT)
            }
            if let replaced = state.nodes[newParent]?.children[newName] { state.nodes[replaced] = nil }
            state.nodes[newParent]?.children[newName] = inode
        }
    }

    func setattr(_ inode: Inode, size: UInt64?, modified: Date?) throws(FSError) -> FileAttributes {
        try update(inode) { node in
            if let size {
                let count = Int(clamping: size)
                node.content = Array(node.content.prefix(count))
                node.content += [UInt8](repeating: 0, count: count - node.content.count)
            }
            if let modified { node.attributes.modified = modified }
        }.attributes
    }

    func setxattr(_ inode: Inode, name: String, value: [UInt8]) throws(FSError) {
        _ = try update(inode) { node in node.xattrs[name] = value }
    }
}
