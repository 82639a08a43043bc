import Activity
import Foundation
import MailCore
import Store

/// What a user does to mail in the tree (docs/REQUIREMENTS.md §C4): rm, mv, mkdir, rmdir. Each is
/// applied to the store and written to the journal before the call returns; the sync
/// engine applies the journal to the server (docs/ARCHITECTURE.md, "tree -> journal").
extension MailTree {
    public func unlink(parent: Inode, name: String) throws(FSError) {
        guard case .directory(let directory)? = Node(inode: parent) else { throw FSError(ENOTDIR) }
        switch directory {
        case .outbox(let accountId):
            try unlinkOutbox(accountId: accountId, parent: parent, name: name)
        case .folder(let folderId):
            let message = try messageNamed(name, in: parent)
            try recordMessage(.remove(fromFolder: folderId), emailId: message.id, accountId: message.accountId, name: name)
        case .archive(let accountId):
            try recordMessage(.removeArchived, emailId: try messageNamed(name, in: parent).id, accountId: accountId, name: name)
        case .root, .unifiedInbox, .account, .threads, .thread, .attachments, .attachmentMessage, .searches,
             .unifiedSearches, .savedSearch, .search:
            throw FSError(EPERM)
        }
        listings.forget(parent)
    }

    public func rename(parent: Inode, name: String, newParent: Inode, newName: String) throws(FSError) {
        if case .directory(.outbox(let accountId))? = Node(inode: parent) {
            return try renameOutbox(accountId: accountId, parent: parent, name: name, newParent: newParent, newName: newName)
        }
        switch try node(named: name, in: parent) {
        case .content(.message(let emailId)):
            try moveMessage(emailId, name: name, from: parent, to: newParent, newName: newName)
        case .directory(let directory):
            switch directory {
            case .folder(let folderId):
                // A rename the server refused was recorded, then reverted: the listings
                // changed whether it throws or not.
                defer {
                    listings.forget(parent)
                    listings.forget(newParent)
                }
                return try renameFolder(folderId, to: newParent, newName: newName)
            case .root, .unifiedInbox, .account, .threads, .thread, .archive, .outbox, .attachments,
                 .attachmentMessage, .searches, .unifiedSearches, .savedSearch, .search:
                throw FSError(EPERM)
            }
        case .content(.attachment), .generated, .rendered, .control, .outboxItem, .newMessage:
            throw FSError(EPERM)
        }
        listings.forget(parent)
        listings.forget(newParent)
    }

    /// mv of a message: between folders, into archive/ or out of it. Names are mailfs's:
    /// a message keeps its name.
    private func moveMessage(_ emailId: Int64, name: String, from parent: Inode, to newParent: Inode,
                             newName: String) throws(FSError) {
        guard newName == name else { throw FSError(EPERM) }
        guard let message = try storeCall({ try store.message(id: emailId) }) else { throw FSError(ENOENT) }
        guard let from = MessagePlace(parent), let to = MessagePlace(newParent) else { throw FSError(EPERM) }
        let operation: MessageOperation
        switch (from, to) {
        case (.folder(let from), .folder(let to)):
            try requireSameAccount(folder: to, accountId: message.accountId)
            operation = .move(fromFolder: from, toFolder: to)
        case (.folder(let from), .archive(let accountId)):
            guard accountId == message.accountId else { throw FSError(EPERM) }
            operation = .archive(fromFolder: from)
        case (.archive, .folder(let to)):
            try requireSameAccount(folder: to, accountId: message.accountId)
            operation = .unarchive(toFolder: to)
        case (.archive, .archive):
            throw FSError(EPERM)
        }
        try recordMessage(operation, emailId: emailId, accountId: message.accountId, name: name)
    }

    /// The directories a message is moved between: a folder, or an account's archive/.
    private enum MessagePlace {
        case folder(Int64)
        case archive(accountId: Int64)

        init?(_ inode: Inode) {
            guard case .directory(let directory)? = Node(inode: inode) else { return nil }
            switch directory {
            case .folder(let id): self = .folder(id)
            case .archive(let accountId): self = .archive(accountId: accountId)
            case .root, .unifiedInbox, .account, .threads, .thread, .outbox, .attachments, .attachmentMessage,
                 .searches, .unifiedSearches, .savedSearch, .search:
                return nil
            }
        }
    }

    /// Records a message operation, reports it, and wakes the account's applier.
    private func recordMessage(_ operation: MessageOperation, emailId: Int64, accountId: Int64,
                               name: String) throws(FSError) {
        let context = try writeContext(accountId)
        let outcome = try storeCall {
            do {
                return try store.record(operation, emailId: emailId, context: context)
            } catch LocalChangeError.noTrash {
                activityLog(accountId, "rm \(name) refused: the server shows no Trash folder (no \\Trash "
                            + "attribute, no folder named like one), so it would be deleted for good; set "
                            + "trash_folder = \"NAME\" or delete_without_trash = true in the config", level: .warning)
                throw LocalChangeError.noTrash
            }
        }
        if outcome != .recorded,
           heldDeletionReports.noteHeld(accountId: accountId, trippedGuard: outcome == .trippedGuard),
           let held = try? storeCall({ try store.heldDeletions(accountId: accountId) }) {
            activityLog(accountId, "\(held) deletion(s) held by the guard (delete_guard \(context.deleteGuard), "
                        + "last: \(name)); echo confirm-deletes or cancel-deletes > .control", level: .warning)
        }
        services?.writeBack.journalChanged(accountId: accountId)
    }

    public func mkdir(parent: Inode, name: String) throws(FSError) -> FileAttributes {
        let (accountId, path) = try childFolderPath(parent: parent, name: name)
        let context = try writeContext(accountId)
        guard let folder = try storeCall({ try store.recordCreateFolder(path: path, context: context) }),
              let id = folder.id else { throw FSError(EEXIST) }
        listings.forget(parent)
        services?.writeBack.journalChanged(accountId: accountId)
        let taken = awaitServer(folderId: id, accountId: accountId) { folder in
            guard let folder else { return false }
            return folder.localState == nil ? true : nil
        }
        guard taken != false else {
            listings.forget(parent)
            throw FSError(EINVAL)
        }
        return directoryAttributes(.folder(id))
    }

    public func rmdir(parent: Inode, name: String) throws(FSError) {
        guard case .directory(.folder(let folderId)) = try node(named: name, in: parent), let folder = try storeCall({ try store.folder(id: folderId) }),
              folder.type == .custom, folder.localState == nil || folder.localState == .creating else {
            throw FSError(EPERM)
        }
        let context = try writeContext(folder.accountId)
        try storeCall { try store.recordDeleteFolder(folderId: folderId, context: context) }
        listings.forget(parent)
        services?.writeBack.journalChanged(accountId: folder.accountId)
    }

    private func renameFolder(_ folderId: Int64, to newParent: Inode, newName: String) throws(FSError) {
        guard let folder = try storeCall({ try store.folder(id: folderId) }), folder.type == .custom,
              folder.isSelectable, !LostAndFound.isLostAndFound(folder) else { throw FSError(EPERM) }
        let (accountId, path) = try childFolderPath(parent: newParent, name: newName)
        guard accountId == folder.accountId, !path.hasPrefix(folder.path + "/") else { throw FSError(EINVAL) }
        let context = try writeContext(accountId)
        try storeCall { try store.recordRenameFolder(folderId: folderId, to: path, context: context) }
        services?.writeBack.journalChanged(accountId: accountId)
        let taken = awaitServer(folderId: folderId, accountId: accountId) { folder in
            guard let folder, folder.localState == nil else { return nil }
            return folder.path == path
        }
        // EPERM, not mkdir's EINVAL: mv takes EINVAL from rename for "a subdirectory of
        // itself" or an unsupported flag, and says so (and tries again) instead.
        guard taken != false else { throw FSError(EPERM) }
    }

    /// How long `mkdir` and `mv` of a folder wait for the server's verdict.
    static let folderVerdictWait = Duration.seconds(10)

    /// Waits on this FUSE thread (`RequestLoop` hands receiving to another meanwhile), while
    /// the account is online and for `folderVerdictWait` at most, for the server to take or
    /// refuse a folder's CREATE or RENAME: a name the server refuses (each server forbids
    /// other characters, and says so only when asked) then fails the system call with
    /// EINVAL, with the server's words in `.log`, instead of the folder vanishing a moment
    /// after `mkdir` said yes. Offline, or with a slow server, the journal's promise stands:
    /// the change is applied when it can be. `verdict` reads the folder's row: true taken,
    /// false refused, nil not yet; the result is nil when no verdict came in time.
    private func awaitServer(folderId: Int64, accountId: Int64,
                             verdict: (FolderRecord?) -> Bool?) -> Bool? {
        guard accounts.activity(accountId: accountId)?.snapshot.online == true else { return nil }
        let deadline = ContinuousClock.now + Self.folderVerdictWait
        while ContinuousClock.now < deadline {
            let folder: FolderRecord?
            do {
                folder = try storeCall { try store.folder(id: folderId) }
            } catch {
                return nil  // The journal keeps the change; `fsError(for:)` noted the failure.
            }
            if let taken = verdict(folder) { return taken }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// The account and tree path of a new folder `name` under `parent` (an account or a
    /// folder). Names the sync would spell differently, or that the tree reserves, are refused.
    private func childFolderPath(parent: Inode, name: String) throws(FSError) -> (Int64, String) {
        guard case .directory(let directory)? = Node(inode: parent) else { throw FSError(EPERM) }
        let path: String
        let accountId: Int64
        switch directory {
        case .account(let id):
            accountId = id
            path = name
        case .folder(let id):
            guard let folder = try storeCall({ try store.folder(id: id) }) else { throw FSError(ENOENT) }
            guard !LostAndFound.isLostAndFound(folder) else { throw FSError(EPERM) }
            accountId = folder.accountId
            path = folder.path + "/" + name
        case .root, .unifiedInbox, .threads, .thread, .archive, .outbox, .attachments, .attachmentMessage, .searches,
             .unifiedSearches, .savedSearch, .search:
            throw FSError(EPERM)
        }
        guard FolderNaming.treePath(forName: path, type: .custom) == path else { throw FSError(EINVAL) }
        return (accountId, path)
    }

    private func requireSameAccount(folder folderId: Int64, accountId: Int64) throws(FSError) {
        guard let folder = try storeCall({ try store.folder(id: folderId) }) else { throw FSError(ENOENT) }
        guard folder.accountId == accountId else { throw FSError(EXDEV) }
    }

    /// The message listed under `name` in a directory: in a folder one indexed read.
    func messageNamed(_ name: String, in parent: Inode) throws(FSError) -> MessageEntry {
        let found: MessageEntry?
        if case .directory(.folder(let folderId))? = Node(inode: parent) {
            found = try storeCall { try store.message(named: name, inFolder: folderId) }
        } else if case .content(.message(let emailId)) = try node(named: name, in: parent) {
            found = try storeCall { try store.message(id: emailId) }
        } else {
            found = nil
        }
        guard let found else { throw FSError(ENOENT) }
        return found
    }

    /// What `name` is in a directory: in a folder, resolved by indexed lookups (a bulk rm
    /// or mv must not rebuild a listing of thousands per file); elsewhere, from the listing.
    func node(named name: String, in parent: Inode) throws(FSError) -> Node {
        if case .directory(.folder(let folderId))? = Node(inode: parent) {
            guard let attributes = try folderChild(named: name, in: folderId), let node = Node(inode: attributes.inode) else {
                throw FSError(ENOENT)
            }
            return node
        }
        guard let entry = try listing(of: parent).entry(named: name), let node = Node(inode: entry.attributes.inode) else {
            throw FSError(ENOENT)
        }
        return node
    }

    /// A message or subfolder of a folder by name, straight from the store. A message's pack
    /// region is remembered, as a listing's are: `cat` opens what it just looked up.
    func folderChild(named name: String, in folderId: Int64) throws(FSError) -> FileAttributes? {
        if let message = try storeCall({ try store.message(named: name, inFolder: folderId) }) {
            contentSources.remember(packedRegionsOf: [message])
            return messageAttributes(message)
        }
        guard let (child, subfolders) = try storeCall({ try store.shownSubfolder(named: name, of: folderId) }) else {
            return nil
        }
        return folderAttributes(child, subfolders: subfolders)
    }

    /// How the store should journal changes of this account.
    func writeContext(_ accountId: Int64) throws(FSError) -> WriteContext {
        guard let account = try storeCall({ try accounts.record(id: accountId) }) else { throw FSError(ENOENT) }
        let profile = accounts.activity(for: account).profile
        let hasServer = !account.isOffline && services != nil
        return WriteContext(accountId: accountId, isOffline: !hasServer, isGmail: profile.provider == .gmail,
                            deleteGuard: profile.deleteGuard, deletesWithoutTrash: profile.deletesWithoutTrash)
    }

    func activityLog(_ accountId: Int64, _ message: String, level: EventLog.Level = .info) {
        accounts.activity(accountId: accountId)?.log.record(message, level: level)
    }
}
