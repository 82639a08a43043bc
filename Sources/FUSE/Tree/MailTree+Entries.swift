import Foundation
import Store

/// What each directory of the tree contains (docs/REQUIREMENTS.md §C2).
extension MailTree {
    /// A directory's listing as built from the store.
    func builtListing(of directory: Node.Directory) throws -> Listing {
        switch directory {
        case .root: return Listing(try rootEntries())
        case .unifiedInbox: return Listing(try unifiedInboxEntries())
        case .account(let id): return Listing(try accountEntries(id))
        case .folder(let id): return try folderListing(id)
        case .threads(let id):
            return Listing(try store.threads(accountId: id).map { thread in
                DirectoryEntry(name: thread.dirName, attributes: threadAttributes(thread))
            })
        case .thread(let id): return threadListing(id, messages: try store.messages(inThread: id))
        case .archive(let id): return Listing(messageEntries(try store.archivedMessages(accountId: id)))
        case .outbox(let id):
            return Listing(try store.outboxItems(accountId: id).map { item in
                DirectoryEntry(name: item.fileName, attributes: outboxAttributes(item))
            })
        case .attachments(let id):
            return Listing(try store.messagesWithAttachments(accountId: id).map { message in
                DirectoryEntry(name: Self.attachmentDirectoryName(message.fileName),
                               attributes: attachmentDirectoryAttributes(message))
            })
        case .attachmentMessage(let id):
            return Listing(try (store.attachmentsByEmail(ids: [id])[id] ?? []).map(attachmentEntry))
        case .searches(let id): return Listing(try searchRootEntries(accountId: id))
        case .unifiedSearches: return Listing(try searchRootEntries(accountId: nil))
        case .savedSearch, .search: return Listing(try searchEntries(try searchDirectory(directory)))
        }
    }

    private func rootEntries() throws -> [DirectoryEntry] {
        var entries = [
            DirectoryEntry(name: ".status", attributes: generatedFileAttributes(.rootStatus)),
            DirectoryEntry(name: "inbox", attributes: directoryAttributes(.unifiedInbox)),
            DirectoryEntry(name: "search", attributes: directoryAttributes(.unifiedSearches)),
        ]
        for account in try accounts.all() {
            guard let id = account.id else { continue }
            entries.append(DirectoryEntry(name: account.name, attributes: directoryAttributes(.account(id))))
        }
        return entries
    }

    private func unifiedInboxEntries() throws -> [DirectoryEntry] {
        try prefixedEntries(store.inboxMessages())
    }

    /// Messages of every account (the unified inbox, `search/` at the root), named with their
    /// account: `work - 2026-11-20 1432 Alice - Lunch.eml`.
    func prefixedEntries(_ messages: [MessageEntry]) throws -> [DirectoryEntry] {
        let names = Dictionary(uniqueKeysWithValues: try accounts.all().compactMap { account in
            account.id.map { ($0, account.name) }
        })
        return zip(messages, messageEntries(messages)).map { message, entry in
            var entry = entry
            entry.name = "\(names[message.accountId] ?? "account") - \(message.fileName)"
            return entry
        }
    }

    private func accountEntries(_ accountId: Int64) throws -> [DirectoryEntry] {
        let directories = try accountDirectoryEntries(accountId)
        let files = [
            DirectoryEntry(name: ".status", attributes: generatedFileAttributes(.accountStatus(accountId))),
            DirectoryEntry(name: ".log", attributes: generatedFileAttributes(.accountLog(accountId))),
            DirectoryEntry(name: ".control", attributes: controlAttributes(accountId)),
        ]
        return files + directories
    }

    /// The names of an account's own files, which its listing renders to give their sizes.
    static let accountFileNames: Set<String> = [".status", ".log", ".control"]

    /// An account's directories: its top folders and the views. A LOOKUP of any other name
    /// than its files' needs only these, and no rendering of `.status` and `.log`: two
    /// milliseconds of a cold `ls` of a folder.
    func accountDirectoryEntries(_ accountId: Int64) throws -> [DirectoryEntry] {
        guard try accounts.record(id: accountId) != nil else { throw FSError(ENOENT) }
        var entries: [DirectoryEntry] = []
        let folders = try store.folders(accountId: accountId)
        let subfolders = Self.subfolderCounts(folders)
        for folder in folders where folder.isShown && Self.parentPath(of: folder.path) == nil {
            entries.append(DirectoryEntry(name: folder.path,
                                          attributes: folderAttributes(folder, subfolders: subfolders[folder.path] ?? 0)))
        }
        let virtual: [(String, Node.Directory)] = [
            ("archive", .archive(accountId)), ("outbox", .outbox(accountId)),
            ("threads", .threads(accountId)), ("attachments", .attachments(accountId)),
            ("search", .searches(accountId)),
        ]
        for (name, node) in virtual {
            entries.append(DirectoryEntry(name: name, attributes: directoryAttributes(node)))
        }
        return entries
    }

    /// A folder lists its subfolders, then its messages.
    func folderListing(_ folderId: Int64) throws -> Listing {
        guard let (folder, folders) = try store.folderAndAccountFolders(id: folderId) else { throw FSError(ENOENT) }
        var subfolders: [DirectoryEntry] = []
        let counts = Self.subfolderCounts(folders)
        for child in folders where child.isShown && Self.parentPath(of: child.path) == folder.path {
            subfolders.append(DirectoryEntry(name: String(child.path.dropFirst(folder.path.count + 1)),
                                             attributes: folderAttributes(child, subfolders: counts[child.path] ?? 0)))
        }
        let messages = folder.isSelectable ? messageEntries(try store.messages(inFolder: folderId)) : []
        return .folder(subfolders: subfolders, messages: messages)
    }

    // Which folders a directory shows: one rule (`FolderRecord.isShown`, and its SQL twin
    // for the store's counts) for the account's and a folder's listings, a LOOKUP that skips
    // the listing, and a folder's link count, which must all agree.

    /// The path of the folder a folder sits in ("Lists" for "Lists/dev"); nil for one at the
    /// top of the account.
    static func parentPath(of path: String) -> String? {
        path.lastIndex(of: "/").map { String(path[..<$0]) }
    }

    /// How many subfolders the tree shows in each folder, by folder path.
    static func subfolderCounts(_ folders: [FolderRecord]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for folder in folders where folder.isShown {
            guard let parent = parentPath(of: folder.path) else { continue }
            counts[parent, default: 0] += 1
        }
        return counts
    }

    /// The entries of messages listed together. Where their bytes are in the pack, read with
    /// the listing, is remembered for their files' next OPEN, which is what usually follows
    /// a listing (`cat`, `grep -r`): those OPENs then need no query of their own.
    func messageEntries(_ messages: [MessageEntry]) -> [DirectoryEntry] {
        contentSources.remember(packedRegionsOf: messages)
        return messages.map { message in
            DirectoryEntry(name: message.fileName, attributes: messageAttributes(message))
        }
    }

    func attachmentEntry(_ attachment: AttachmentEntry) -> DirectoryEntry {
        DirectoryEntry(name: attachment.fileName, attributes: attachmentAttributes(id: attachment.id, size: attachment.sizeBytes))
    }

    /// attachments/<message>/ is named after the message file, without `.eml`.
    static func attachmentDirectoryName(_ messageFileName: String) -> String {
        messageFileName.hasSuffix(".eml") ? String(messageFileName.dropLast(4)) : messageFileName
    }
}
