import Activity
import Foundation
import MailCore
import Store

/// Opening and reading files: messages and attachments from the store, `.status` and
/// `.log` rendered at open, `.control` taking commands.
extension MailTree {
    public func open(_ inode: Inode, flags: Int32) throws(FSError) -> OpenedFile {
        guard let node = Node(inode: inode) else { throw FSError(ENOENT) }
        let writing = flags & O_ACCMODE != O_RDONLY
        switch node {
        case .directory:
            throw FSError(EISDIR)
        case .control(let id):
            if flags & O_ACCMODE == O_RDONLY {
                return OpenedFile(handle: files.open(.content(Self.controlHelp)), keepCache: false, directIO: true,
                                  flushes: false)
            }
            return OpenedFile(handle: files.open(.control(accountId: id, written: [])),
                              keepCache: false, directIO: true)
        case .generated(let file):
            guard !writing else { throw FSError(EACCES) }
            let content = try storeCall { try self.generatedContent(file) }
            return OpenedFile(handle: files.open(.content(content)), keepCache: false, directIO: true,
                              flushes: false)
        case .content(let file):
            guard !writing else { throw FSError(EROFS) }
            return try openContent(file)
        case .rendered(let file):
            guard !writing else { throw FSError(EROFS) }
            return OpenedFile(handle: files.open(.rendered(file)), keepCache: true, directIO: false, flushes: false)
        case .outboxItem(let id):
            // A queued message is not edited in place: rm it and copy a new one.
            guard !writing else { throw FSError(EACCES) }
            let stored = drafts.bytes(id) == nil ? try storeCall({ try store.outboxData(id: id) }) : nil
            guard let bytes = drafts.bytes(id) ?? stored else { throw FSError(ENOENT) }
            return OpenedFile(handle: files.open(.content(bytes)), keepCache: false, directIO: true,
                              flushes: false)
        case .newMessage:
            // Its bytes are the writer's until close, which journals them.
            throw FSError(EBUSY)
        }
    }

    public func read(_ inode: Inode, handle: UInt64, offset: UInt64, size: Int) throws(FSError) -> [UInt8] {
        let bytes: [UInt8]
        switch files.file(handle) {
        case .content(let content)?:
            bytes = content
        case .packed(let message)?:
            return try storeCall { try store.readPacked(message, at: Int64(clamping: offset), size: size) }
        case .stored(let node)?:
            bytes = try storedContent(node)
            files.update(handle) { $0 = .content(bytes) }
        case .rendered(let file)?:
            bytes = try renderedContent(file)
            files.update(handle) { $0 = .content(bytes) }
        case .disk(let fd, let fileSize)?:
            return try read(fd: fd, fileSize: fileSize, offset: offset, size: size)
        case .streaming(let stream, let listedSize)?:
            return try read(stream, listedSize: listedSize, at: inode, offset: offset, size: size)
        case .outgoing?, .appending?, .appended?, .control?, nil:
            throw FSError(EBADF)
        }
        guard offset < UInt64(bytes.count), size > 0 else { return [] }
        let start = Int(offset)
        let end = start + min(size, bytes.count - start)
        return Array(bytes[start..<end])
    }

    public func release(_ inode: Inode, handle: UInt64) {
        switch files.close(handle) {
        case .disk(let fd, _)?: close(fd)
        case .packed(let message)?: store.closePacked(message)
        case .outgoing(let id, let accountId)?: releaseOutgoing(itemId: id, accountId: accountId)
        case .appending(let folderId, let accountId, let name)?:
            // A flush with content ends the handle: what is left here was never written.
            if newMessages.end(Int64(handle))?.isEmpty ?? true { activityLog(accountId, "\(name): empty file, nothing added") }
            invalidator?.invalidateEntry(parent: Node.Directory.folder(folderId).inode, name: name)
        case .appended(let folderId, let name)?:
            // The name the writer used was never a file of the store: forget its dentry.
            invalidator?.invalidateEntry(parent: Node.Directory.folder(folderId).inode, name: name)
        case .content?, .stored?, .rendered?, .streaming?, .control?, nil: break
        }
    }

    /// Up to `size` bytes at `offset` of a download, waiting for them to arrive (short
    /// only at its end). At the end the exact size is known before the reader sees EOF,
    /// so a `stat` right after `cat` shows it.
    private func read(_ stream: ContentStream, listedSize: Int64, at inode: Inode,
                      offset: UInt64, size: Int) throws(FSError) -> [UInt8] {
        guard let start = Int64(exactly: offset) else { return [] }
        let bytes: [UInt8]
        do {
            bytes = try stream.read(offset: start, size: size)
        } catch {
            logger.error("read of \(stream.key) failed: \(error)")
            throw fsError(for: error)
        }
        if bytes.count < size, let file = stream.completedFile {
            learnSize(file, of: stream.key, at: inode, listed: listedSize)
        }
        return bytes
    }

    /// Up to `size` bytes at `offset` of a cached file (short only at its end).
    private func read(fd: Int32, fileSize: Int64, offset: UInt64, size: Int) throws(FSError) -> [UInt8] {
        guard offset < UInt64(max(fileSize, 0)), size > 0 else { return [] }
        let count = Int(min(UInt64(size), UInt64(fileSize) - offset))
        var buffer = [UInt8](repeating: 0, count: count)
        let filled = try storeCall {
            try buffer.withUnsafeMutableBytes { raw throws(FileRangeError) in
                try FileRange.read(fd, into: raw, at: Int64(offset))
            }
        }
        return filled == count ? buffer : Array(buffer[..<filled])
    }

    /// The bytes of a message or attachment whose raw message the store holds.
    private func storedContent(_ node: Node.ContentFile) throws(FSError) -> [UInt8] {
        switch node {
        case .message(let id):
            guard let raw = try storeCall({ try store.rawMessage(emailId: id) }) else {
                throw FSError(EIO)
            }
            return raw
        case .attachment(let id):
            guard let attachment = try storeCall({ try store.attachment(id: id) }) else { throw FSError(ENOENT) }
            guard let raw = try storeCall({ try store.rawMessage(emailId: attachment.emailId) }),
                  let content = MessageParser.decodedContent(ofPart: attachment.partId, in: raw) else {
                throw FSError(EIO)
            }
            return content
        }
    }

    /// `.status` (root and account) and `.log`, rendered now.
    func generatedContent(_ file: Node.GeneratedFile) throws -> [UInt8] {
        switch file {
        case .rootStatus:
            let facts = try accounts.all().compactMap { account in
                try statusFacts(account).map { (name: account.name, facts: $0) }
            }
            return Array(StatusReport.root(facts, diskUse: store.totalDiskUse(), spaceProblem: store.packSpaceProblem).utf8)
        case .accountStatus(let id):
            return try accountStatus(id, storage: .computed)
        case .accountLog(let id):
            guard let account = try accounts.record(id: id) else { throw FSError(ENOENT) }
            return Array(accounts.activity(for: account).log.rendered().utf8)
        }
    }

    /// Which storage figures an account's `.status` shows.
    enum StorageFigures {
        /// Summed from the store (once a minute at most: the sums read every message).
        case computed
        /// The last ones summed, or none: for the size a listing or `stat` gives `.status`,
        /// which must not cost a read of the whole store (the file is read with direct I/O,
        /// so its size is only a hint).
        case lastKnown
    }

    func accountStatus(_ id: Int64, storage: StorageFigures) throws -> [UInt8] {
        guard let account = try accounts.record(id: id), let facts = try statusFacts(account, storage: storage) else {
            throw FSError(ENOENT)
        }
        return Array(StatusReport.account(facts).utf8)
    }

    /// The account's facts. When the store's file turns out damaged, the live state alone,
    /// with the damage as `last_error`: `.status` still says what is wrong (never EIO).
    private func statusFacts(_ account: AccountRecord, storage: StorageFigures? = nil) throws -> StatusReport.AccountFacts? {
        let activity = accounts.activity(for: account)
        do {
            var facts = try store.statusFacts(account, activity: activity.snapshot, profile: activity.profile)
            if let id = account.id {
                switch storage {
                case .computed?: facts?.storage = try store.storageUse(accountId: id)
                case .lastKnown?: facts?.storage = store.lastStorageUse(accountId: id)
                case nil: break
                }
            }
            if let damage = store.knownDamage { facts?.activity.lastError = damage.description }
            return facts
        } catch {
            guard let damage = store.damage(in: error) else { throw error }
            var state = activity.snapshot
            state.lastError = damage.description
            return .storeUnreadable(account, activity: state, profile: activity.profile)
        }
    }
}
