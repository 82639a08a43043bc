import Foundation
import Store

/// `rm`, `mv` and `touch` in outbox/.
extension MailTree {
    /// `rm`: a draft, queued, failed or held message is discarded (within the undo delay this
    /// cancels the send); one being transmitted is EBUSY. One that reached some recipients
    /// already leaves outbox/ as sent to them, and its copy goes to Sent.
    func unlinkOutbox(accountId: Int64, parent: Inode, name: String) throws(FSError) {
        let item = try outboxItem(named: name, parent: parent)
        let outcome: String
        switch try storeCall({ try store.transition(send: item.id, .discard) }) {
        case .remove: outcome = "discarded"
        case .accept: outcome = "given up on \(item.undelivered.count) recipient(s), sent to \(item.delivered.count); its copy goes to Sent"
        case .refuse: throw FSError(EBUSY)
        default: throw FSError(ENOENT)
        }
        drafts.end(item.id)
        listings.forget(parent)
        if item.state != .draft { report(accountId, "\(item.fileName) \(outcome) (\(item.state.rawValue))") }
        services?.sending.queueChanged(accountId: accountId)
    }

    /// `mv` within outbox/: renames; an editor's temporary file renamed to a real name is
    /// checked and queued like a file closed under that name (and stays if refused).
    func renameOutbox(accountId: Int64, parent: Inode, name: String, newParent: Inode, newName: String) throws(FSError) {
        guard newParent == parent else { throw FSError(EPERM) }
        guard Self.isAcceptableOutboxName(newName) else { throw FSError(EINVAL) }
        let item = try outboxItem(named: name, parent: parent)
        guard try storeCall({ try store.renameOutboxItem(id: item.id, to: newName) }) else { throw FSError(EEXIST) }
        listings.forget(parent)
        guard item.state == .draft, !Self.isTemporaryName(newName), drafts.bytes(item.id) == nil else { return }
        let bytes = try storeCall { try store.outboxData(id: item.id) } ?? []
        var renamed = item
        renamed.fileName = newName
        do {
            try submit(renamed, bytes: bytes, accountId: accountId, keepingDraft: true)
        } catch {
            _ = try? storeCall { try store.renameOutboxItem(id: item.id, to: name) }
            throw error
        }
    }

    /// `touch` of a failed or held message queues it again (a fresh 24 h and retry budget);
    /// truncating is allowed only while the file is being written.
    public func setattr(_ inode: Inode, size: UInt64?, modified: Date?) throws(FSError) -> FileAttributes {
        switch Node(inode: inode) {
        case .newMessage(let handle)?:
            return try truncateNewMessage(handle, size: size)
        case .outboxItem(let id)?:
            return try touchOutboxItem(id, size: size, modified: modified)
        case .directory?, .content?, .generated?, .rendered?, .control?, nil:
            throw FSError(EROFS)
        }
    }

    private func touchOutboxItem(_ id: Int64, size: UInt64?, modified: Date?) throws(FSError) -> FileAttributes {
        guard let item = try storeCall({ try store.outboxItem(id: id) }) else { throw FSError(ENOENT) }
        if let size {
            guard size <= UInt64(drafts.maxSize), drafts.truncate(id, to: Int(size)) else { throw FSError(EPERM) }
        }
        if modified != nil, case .update = try storeCall({ try store.transition(send: id, .retry) }) {
            report(item.accountId, "\(item.fileName) queued again")
            services?.sending.queueChanged(accountId: item.accountId)
        }
        guard let updated = try storeCall({ try store.outboxItem(id: id) }) else { throw FSError(ENOENT) }
        return outboxAttributes(updated)
    }

    func outboxItem(named name: String, parent: Inode) throws(FSError) -> OutboxItem {
        guard let entry = try listing(of: parent).entry(named: name),
              case .outboxItem(let id)? = Node(inode: entry.attributes.inode),
              let item = try storeCall({ try store.outboxItem(id: id) }) else { throw FSError(ENOENT) }
        return item
    }
}
