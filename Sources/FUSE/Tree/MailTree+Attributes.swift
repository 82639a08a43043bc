import Foundation
import Store

/// Attributes of every kind of node: modes 0700/0600 (docs/REQUIREMENTS.md §C2), message dates as
/// mtimes, exact sizes.
extension MailTree {
    /// A node's attributes; those of store rows (`Node.attributesAreKept`) as listed or
    /// looked up before, until the store changes.
    func attributes(of node: Node) throws(FSError) -> FileAttributes {
        if let known = listings.attributes(node.inode) { return known }
        let generation = listings.generation
        let attributes = try currentAttributes(of: node)
        listings.remember(attributes, builtIn: generation)
        return attributes
    }

    private func currentAttributes(of node: Node) throws(FSError) -> FileAttributes {
        switch node {
        case .directory(let directory):
            return try attributes(of: directory)
        case .content(.message(let id)):
            guard let message = try storeCall({ try store.message(id: id) }) else { throw FSError(ENOENT) }
            return messageAttributes(message)
        case .content(.attachment(let id)):
            guard let attachment = try storeCall({ try store.attachment(id: id) }) else { throw FSError(ENOENT) }
            return attachmentAttributes(id: id, size: attachment.sizeBytes)
        case .generated(let file):
            return generatedFileAttributes(file)
        case .rendered(let file):
            return try renderedAttributes(file)
        case .control(let accountId):
            return controlAttributes(accountId)
        case .outboxItem(let id):
            guard let item = try storeCall({ try store.outboxItem(id: id) }), !item.state.isAccepted else {
                throw FSError(ENOENT)
            }
            return outboxAttributes(item)
        case .newMessage(let handle):
            switch files.file(UInt64(handle)) {
            case .appending?: return newMessageAttributes(handle: handle, size: newMessages.bytes(handle)?.count ?? 0)
            case .appended?: return newMessageAttributes(handle: handle, size: 0)
            case .content?, .packed?, .stored?, .rendered?, .disk?, .streaming?, .outgoing?, .control?, nil:
                throw FSError(ENOENT)
            }
        }
    }

    private func attributes(of directory: Node.Directory) throws(FSError) -> FileAttributes {
        switch directory {
        case .thread(let id):
            guard let thread = try storeCall({ try store.thread(id: id) }) else { throw FSError(ENOENT) }
            return threadAttributes(thread)
        case .attachmentMessage(let id):
            guard let message = try storeCall({ try store.message(id: id) }) else { throw FSError(ENOENT) }
            return attachmentDirectoryAttributes(message)
        case .folder(let id):
            // From the folder rows, not the folder's listing: after a change dropped the
            // listings, `stat` of a 10,000-message folder would otherwise rebuild them all.
            guard let (folder, subfolders) = try storeCall({ try store.folderWithSubfolderCount(id: id) }) else {
                throw FSError(ENOENT)
            }
            return folderAttributes(folder, subfolders: subfolders)
        case .savedSearch, .search:
            // Known without running the query: `stat` of a search directory is free.
            _ = try searchDirectory(directory)
            return directoryAttributes(directory)
        case .root, .unifiedInbox, .unifiedSearches, .account, .threads, .archive, .outbox, .attachments, .searches:
            // Listing the directory proves it exists and counts its subdirectories.
            let listing = try listing(of: directory.inode)
            var attributes = directoryAttributes(directory)
            attributes.linkCount = UInt32(2 + listing.subdirectoryCount)
            return attributes
        }
    }

    /// A folder directory, for its listing entry and its GETATTR: its link count counts its
    /// subfolders, as a directory's does on disk.
    func folderAttributes(_ folder: FolderRecord, subfolders: Int) -> FileAttributes {
        var attributes = directoryAttributes(.folder(folder.id ?? 0))
        attributes.linkCount = UInt32(2 + subfolders)
        return attributes
    }

    func directoryAttributes(_ directory: Node.Directory, modified: Date? = nil) -> FileAttributes {
        FileAttributes(inode: directory.inode, kind: .directory, permissions: 0o700, linkCount: 2,
                       size: 4096, modified: modified ?? listingsChangedAt.withLock { $0 })
    }

    // Thread and attachments/<message>/ directories: one function each for their listing
    // entry and their GETATTR. The kernel fills a cached listing under the directory's mtime
    // and drops it when a later GETATTR brings another, so the two must never differ.

    func threadAttributes(_ thread: ThreadEntry) -> FileAttributes {
        directoryAttributes(.thread(thread.id), modified: thread.latestDate)
    }

    func attachmentDirectoryAttributes(_ message: MessageEntry) -> FileAttributes {
        directoryAttributes(.attachmentMessage(message.id), modified: message.date)
    }

    func messageAttributes(_ message: MessageEntry) -> FileAttributes {
        FileAttributes(inode: Node.ContentFile.message(message.id).inode, kind: .regular, permissions: 0o600,
                       linkCount: UInt32(message.folderCount),
                       size: UInt64(max(message.sizeBytes, 0)), modified: message.date)
    }

    func attachmentAttributes(id: Int64, size: Int64) -> FileAttributes {
        FileAttributes(inode: Node.ContentFile.attachment(id).inode, kind: .regular,
                       permissions: 0o600, linkCount: 1,
                       size: UInt64(max(size, 0)), modified: settings.mountedAt)
    }

    /// `.status` and `.log` are rendered on open and served with direct I/O, so the size
    /// reported here is the size of a rendering now (an account's `.status` with the storage
    /// figures last summed: summing them reads the whole store); readers read to EOF regardless.
    func generatedFileAttributes(_ file: Node.GeneratedFile) -> FileAttributes {
        let content = switch file {
        case .accountStatus(let id): try? accountStatus(id, storage: .lastKnown)
        case .rootStatus, .accountLog: try? generatedContent(file)
        }
        let size = content?.count ?? 0
        return FileAttributes(inode: file.inode, kind: .regular, permissions: 0o600, linkCount: 1,
                              size: UInt64(size), modified: Date(), isVolatile: true)
    }

    func controlAttributes(_ accountId: Int64) -> FileAttributes {
        // Readable too (it says which commands it takes): `grep -r` over an account must not
        // fail on a file it cannot open.
        FileAttributes(inode: Node.control(accountId).inode, kind: .regular, permissions: 0o600,
                       linkCount: 1, size: UInt64(Self.controlHelp.count), modified: settings.mountedAt)
    }
}
