import Activity
import Foundation
import MailContracts
import MailCore
import Store

/// outbox/ (docs/REQUIREMENTS.md §C3): a new file is written to memory, checked and
/// committed to the send queue when closed (close() fails with the reason otherwise);
/// queued files stay listed with their state in xattrs; `rm` discards, `touch` retries a
/// failed one.
extension MailTree {
    /// Names editors and tools use for work files (`.x.swp`, `x~`, `x.tmp`): kept as
    /// drafts on close, sent when renamed to a real name.
    static func isTemporaryName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return name.hasPrefix(".") || name.hasSuffix("~")
            || [".tmp", ".swp", ".swx", ".part", ".partial"].contains { lower.hasSuffix($0) }
    }

    /// Any name a user or an editor may give a file here: no control characters (the
    /// kernel already refuses `/`, NUL, `.` and `..`), at most 255 bytes.
    static func isAcceptableOutboxName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && name != "." && name != ".."
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "/" }
    }

    public func create(parent: Inode, name: String, flags: Int32) throws(FSError) -> (FileAttributes, OpenedFile) {
        guard case .directory(let directory)? = Node(inode: parent) else { throw FSError(EPERM) }
        switch directory {
        case .folder(let folderId):
            return try createInFolder(folderId, parent: parent, name: name)
        case .outbox(let accountId):
            return try createInOutbox(accountId: accountId, parent: parent, name: name)
        case .root, .unifiedInbox, .account, .threads, .thread, .archive, .attachments, .attachmentMessage, .searches,
             .unifiedSearches, .savedSearch, .search:
            throw FSError(EPERM)
        }
    }

    private func createInOutbox(accountId: Int64, parent: Inode, name: String) throws(FSError) -> (FileAttributes, OpenedFile) {
        guard services?.sending.acceptsMail(accountId: accountId) == true else { throw FSError(EROFS) }
        guard Self.isAcceptableOutboxName(name) else { throw FSError(EINVAL) }
        guard let item = try storeCall({ try store.createDraft(accountId: accountId, fileName: name) }) else {
            throw FSError(EEXIST)
        }
        drafts.begin(item.id)
        listings.forget(parent)
        let handle = files.open(.outgoing(itemId: item.id, accountId: accountId))
        return (outboxAttributes(item), OpenedFile(handle: handle, keepCache: false, directIO: true))
    }

    public func write(_ inode: Inode, handle: UInt64, offset: UInt64,
                      data: UnsafeRawBufferPointer) throws(FSError) -> Int {
        switch files.file(handle) {
        case .control?:
            return try writeControl(handle: handle, data: data)
        case .outgoing(let id, _)?:
            guard offset <= UInt64(drafts.maxSize), drafts.write(id, at: Int(offset), data) else {
                throw FSError(EFBIG)
            }
            return data.count
        case .appending?, .appended?:
            return try writeNewMessage(handle: handle, offset: offset, data: data)
        case .content?, .packed?, .stored?, .rendered?, .disk?, .streaming?, nil:
            throw FSError(EBADF)
        }
    }

    /// close(2): `.control` runs its last command; a new outbox file is checked and queued.
    public func flush(_ inode: Inode, handle: UInt64) throws(FSError) {
        switch files.file(handle) {
        case .control?:
            try flushControl(handle: handle)
        case .appending(let folderId, let accountId, let name)?:
            try flushNewMessage(handle: handle, parent: folderId, accountId: accountId, name: name)
        case .outgoing(let id, let accountId)?:
            // Nothing written yet is not a message yet: a shell closes the descriptor it
            // opened before writing through the dup'd one (`cat > outbox/x.eml <<EOF`).
            guard let bytes = drafts.bytes(id), !bytes.isEmpty, let item = try storeCall({ try store.outboxItem(id: id) }),
                  item.state == .draft else { return }
            if Self.isTemporaryName(item.fileName) {
                try storeCall { try store.saveDraft(id: id, data: bytes) }
            } else {
                drafts.end(id)
                try submit(item, bytes: bytes, accountId: accountId)
            }
        case .appended?, .content?, .packed?, .stored?, .rendered?, .disk?, .streaming?, nil:
            return
        }
    }

    /// A file closed without a flush that queued it (its writer died, it was refused, or
    /// nothing was ever written) leaves no trace; an editor's temporary file stays until
    /// renamed or removed.
    func releaseOutgoing(itemId id: Int64, accountId: Int64) {
        let neverWritten = drafts.bytes(id)?.isEmpty ?? false
        drafts.end(id)
        guard let item = try? storeCall({ try store.outboxItem(id: id) }), !Self.isTemporaryName(item.fileName) else { return }
        guard case .remove? = try? storeCall({ try store.transition(send: id, .abandon) }) else { return }
        if neverWritten { services?.sending.refused(item, reason: "empty file") }
        forgetName(item.fileName, accountId: accountId)
    }

    /// A name that left outbox/ is usable again at once: the kernel's cached entry goes too.
    func forgetName(_ name: String, accountId: Int64) {
        let outbox = Node.Directory.outbox(accountId).inode
        listings.forget(outbox)
        invalidator?.invalidateEntry(parent: outbox, name: name)
    }

    /// Hands `bytes` to the account's sender, which queues them or refuses them (and says
    /// why in `.log` and `.status`); a refused file's draft is removed unless `keepingDraft`.
    func submit(_ item: OutboxItem, bytes: [UInt8], accountId: Int64, keepingDraft: Bool = false) throws(FSError) {
        guard let service = services?.sending,
              let submission = try storeCall({ try service.submit(item, bytes: bytes) }) else { throw FSError(EROFS) }
        switch submission {
        case .queued:
            return
        case .gone:
            throw FSError(ENOENT)
        case .refused(let rejection):
            if !keepingDraft {
                _ = try? storeCall { try store.transition(send: item.id, .abandon) }
                forgetName(item.fileName, accountId: accountId)
            }
            listings.forget(Node.Directory.outbox(accountId).inode)
            if case .tooLarge = rejection { throw FSError(EFBIG) }
            throw FSError(EINVAL)
        }
    }

    /// An `outbox: …` line in the account's `.log`, for what users do to queued files.
    func report(_ accountId: Int64, _ message: String) {
        accounts.activity(accountId: accountId)?.log.record("outbox: " + message)
    }

    func outboxAttributes(_ item: OutboxItem) -> FileAttributes {
        let size = drafts.bytes(item.id).map { Int64($0.count) } ?? item.sizeBytes
        return FileAttributes(inode: Node.outboxItem(item.id).inode, kind: .regular, permissions: 0o600,
                              linkCount: 1, size: UInt64(max(size, 0)), modified: item.createdAt, isVolatile: true)
    }
}
