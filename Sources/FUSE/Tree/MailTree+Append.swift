import Foundation
import MailCore
import Store

/// `cp note.eml FOLDER/`: a new file in a server folder is buffered while written and, on
/// close, checked and journaled as an APPEND (listed at once under its mailfs name).
extension MailTree {
    func createInFolder(_ folderId: Int64, parent: Inode, name: String) throws(FSError) -> (FileAttributes, OpenedFile) {
        guard let folder = try storeCall({ try store.folder(id: folderId) }), folder.isSelectable,
              !LostAndFound.isLostAndFound(folder) else { throw FSError(EPERM) }
        guard Self.isAcceptableOutboxName(name) else { throw FSError(EINVAL) }
        let handle = files.open(.appending(folderId: folderId, accountId: folder.accountId, name: name))
        newMessages.begin(Int64(handle))
        return (newMessageAttributes(handle: Int64(handle), size: 0), OpenedFile(handle: handle, keepCache: false, directIO: true))
    }

    func writeNewMessage(handle: UInt64, offset: UInt64, data: UnsafeRawBufferPointer) throws(FSError) -> Int {
        // Already journaled through another descriptor: a message is not edited in place.
        guard case .appending? = files.file(handle) else { throw FSError(EBADF) }
        guard offset <= UInt64(newMessages.maxSize), newMessages.write(Int64(handle), at: Int(offset), data) else {
            throw FSError(EFBIG)
        }
        return data.count
    }

    /// close(2) of a file with content: the message is checked and journaled; a refused
    /// file fails close() with EINVAL and the reason in `.log`. Either way the handle is
    /// done: a file closed twice (dup) is journaled once. An empty one is left to release
    /// (a shell closes its first descriptor before writing).
    func flushNewMessage(handle: UInt64, parent folderId: Int64, accountId: Int64, name: String) throws(FSError) {
        guard let data = newMessages.bytes(Int64(handle)), !data.isEmpty else { return }
        newMessages.end(Int64(handle))
        files.update(handle) { $0 = .appended(folderId: folderId, name: name) }
        let folder = try storeCall { try store.folder(id: folderId) }
        switch AppendedMessage.check(data, uniqueToken: UUID().uuidString.lowercased()) {
        case .failure(let reason):
            activityLog(accountId, "\(name) refused: \(reason)", level: .error)
            throw FSError(EINVAL)
        case .success(let message):
            let flags = MessageFlags(seen: true, draft: folder?.type == .drafts)
            let context = try writeContext(accountId)
            let stored = try storeCall {
                try store.recordAppend(message, folderId: folderId, flags: flags, context: context)
            }
            activityLog(accountId, "\(name) added to \(folder?.path ?? "folder") as \(stored)")
            services?.writeBack.journalChanged(accountId: accountId)
            listings.forget(Node.Directory.folder(folderId).inode)
            invalidator?.invalidateEntry(parent: Node.Directory.folder(folderId).inode, name: name)
        }
    }

    func truncateNewMessage(_ handle: Int64, size: UInt64?) throws(FSError) -> FileAttributes {
        guard let size, size <= UInt64(newMessages.maxSize), newMessages.truncate(handle, to: Int(size)) else {
            throw FSError(EFBIG)
        }
        return newMessageAttributes(handle: handle, size: Int(size))
    }

    func newMessageAttributes(handle: Int64, size: Int) -> FileAttributes {
        FileAttributes(inode: Node.newMessage(handle).inode, kind: .regular, permissions: 0o600, linkCount: 1,
                       size: UInt64(size), modified: Date(), isVolatile: true)
    }
}
