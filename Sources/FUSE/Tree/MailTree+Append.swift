import Foundation
import MailCore
import Store

/// `cp note.eml FOLDER/`: a new file in a server folder is buffered while written and, on
/// close, checked and journaled as an APPEND (listed at once under its mailfs name).
extension MailTree {
    /// The largest message accepted into a folder (servers commonly refuse far less).
    static let maxAppendSize = 64 << 20

    func createInFolder(_ folderId: Int64, parent: Inode, name: String) throws(FSError) -> (FileAttributes, OpenedFile) {
        guard let folder = try storeCall({ try store.folder(id: folderId) }), folder.isSelectable else { throw FSError(EPERM) }
        guard Self.isAcceptableOutboxName(name) else { throw FSError(EINVAL) }
        let handle = files.open(.appending(folderId: folderId, accountId: folder.accountId, name: name, data: []))
        return (newMessageAttributes(handle: Int64(handle), size: 0), OpenedFile(handle: handle, keepCache: false, directIO: true))
    }

    func writeNewMessage(handle: UInt64, offset: UInt64, data: UnsafeRawBufferPointer) throws(FSError) -> Int {
        // Already journaled through another descriptor: a message is not edited in place.
        guard case .appending? = files.file(handle) else { throw FSError(EBADF) }
        var accepted = true
        files.update(handle) { file in
            guard case .appending(let folderId, let accountId, let name, var bytes) = file else { return }
            let end = Int(offset) + data.count
            guard offset <= UInt64(Self.maxAppendSize), end <= Self.maxAppendSize else { accepted = false; return }
            if bytes.count < end { bytes.append(contentsOf: repeatElement(0, count: end - bytes.count)) }
            bytes.replaceSubrange(Int(offset)..<end, with: data)
            file = .appending(folderId: folderId, accountId: accountId, name: name, data: bytes)
        }
        guard accepted else { throw FSError(EFBIG) }
        return data.count
    }

    /// close(2) of a file with content: the message is checked and journaled; a refused
    /// file fails close() with EINVAL and the reason in `.log`. A file closed twice (dup)
    /// is journaled once. An empty one is left to release (a shell closes its first
    /// descriptor before writing).
    func flushNewMessage(handle: UInt64, parent folderId: Int64, accountId: Int64, name: String, data: [UInt8]) throws(FSError) {
        files.update(handle) { $0 = .appended(folderId: folderId, name: name) }
        let folder = try storeCall { try store.folder(id: folderId) }
        switch AppendedMessage.check(data, uniqueToken: UUID().uuidString.lowercased()) {
        case .failure(let reason):
            activityLog(accountId, "\(name) refused: \(reason)", level: "error")
            files.update(handle) { $0 = .appending(folderId: folderId, accountId: accountId, name: name, data: []) }
            throw FSError(EINVAL)
        case .success(let message):
            let flags = MessageFlags(seen: true, draft: folder?.type == .drafts)
            let context = try writeContext(accountId)
            let stored = try journalCall {
                try store.recordAppend(message, folderId: folderId, flags: flags, context: context)
            }
            activityLog(accountId, "\(name) added to \(folder?.path ?? "folder") as \(stored)")
            writeBackService.withLock { $0 }?.journalChanged(accountId: accountId)
            listings.forget(Node.folder(folderId).inode)
            invalidator.withLock { $0 }?.invalidateEntry(parent: Node.folder(folderId).inode, name: name)
        }
    }

    func truncateNewMessage(_ handle: Int64, size: UInt64?) throws(FSError) -> FileAttributes {
        guard let size, size <= UInt64(Self.maxAppendSize) else { throw FSError(EFBIG) }
        var count = 0
        files.update(UInt64(handle)) { file in
            guard case .appending(let folderId, let accountId, let name, var bytes) = file else { return }
            bytes = Array(bytes.prefix(Int(size))) + Array(repeating: 0, count: max(Int(size) - bytes.count, 0))
            count = bytes.count
            file = .appending(folderId: folderId, accountId: accountId, name: name, data: bytes)
        }
        return newMessageAttributes(handle: handle, size: count)
    }

    func newMessageAttributes(handle: Int64, size: Int) -> FileAttributes {
        FileAttributes(inode: Node.newMessage(handle).inode, kind: .regular, permissions: 0o600, linkCount: 1,
                       size: UInt64(size), modified: Date(), isVolatile: true)
    }
}
