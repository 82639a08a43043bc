import Foundation
import Store

/// Flags as extended attributes: `user.mailfs.seen` and `user.mailfs.flagged`, "0" or "1".
extension MailTree {
    static let flagAttributes: [String: UserFlag] = [
        "user.mailfs.seen": .seen, "user.mailfs.flagged": .flagged,
    ]

    public func getxattr(_ inode: Inode, name: String) throws(FSError) -> [UInt8] {
        switch Node(inode: inode) {
        case .content(.message(let id))?:
            return try messageAttribute(id, name: name)
        case .outboxItem(let id)?:
            return try outboxAttribute(id, name: name)
        case .directory?, .content(.attachment)?, .generated?, .rendered?, .control?, .newMessage?, nil:
            throw FSError(ENODATA)
        }
    }

    public func listxattr(_ inode: Inode) throws(FSError) -> [String] {
        switch Node(inode: inode) {
        case .content(.message)?:
            return (Self.flagAttributes.keys + [Self.pendingAttribute]).sorted()
        case .outboxItem(let id)?:
            guard let item = try storeCall({ try store.outboxItem(id: id) }) else { throw FSError(ENOENT) }
            return item.lastError == nil ? ["user.mailfs.state"] : ["user.mailfs.error", "user.mailfs.state"]
        case .directory?, .content(.attachment)?, .generated?, .rendered?, .control?, .newMessage?, nil:
            return []
        }
    }

    /// `user.mailfs.seen`, `user.mailfs.flagged` and `user.mailfs.pending`.
    private func messageAttribute(_ id: Int64, name: String) throws(FSError) -> [UInt8] {
        if name == Self.pendingAttribute {
            return Array((try storeCall { try store.hasPendingChange(emailId: id) } ? "1" : "0").utf8)
        }
        guard let flag = Self.flagAttributes[name] else { throw FSError(ENODATA) }
        guard let message = try storeCall({ try store.message(id: id) }) else { throw FSError(ENOENT) }
        let value = flag == .seen ? message.isRead : message.isStarred
        return Array((value ? "1" : "0").utf8)
    }

    /// `user.mailfs.state` (draft | queued | sending | failed) and `user.mailfs.error`.
    private func outboxAttribute(_ id: Int64, name: String) throws(FSError) -> [UInt8] {
        guard let item = try storeCall({ try store.outboxItem(id: id) }) else { throw FSError(ENOENT) }
        switch name {
        case "user.mailfs.state": return Array(item.state.rawValue.utf8)
        case "user.mailfs.error":
            guard let error = item.lastError else { throw FSError(ENODATA) }
            return Array(error.utf8)
        default: throw FSError(ENODATA)
        }
    }

    /// "1" while the message has a change the server has not taken yet.
    static let pendingAttribute = "user.mailfs.pending"

    /// Applied locally at once and journaled: the applier pushes it with STORE.
    public func setxattr(_ inode: Inode, name: String, value: [UInt8]) throws(FSError) {
        guard case .content(.message(let id))? = Node(inode: inode) else { throw FSError(ENOTSUP) }
        guard let flag = Self.flagAttributes[name] else { throw FSError(ENOTSUP) }
        let text = String(decoding: value, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text == "0" || text == "1" else { throw FSError(EINVAL) }
        guard let message = try storeCall({ try store.message(id: id) }) else { throw FSError(ENOENT) }
        let context = try writeContext(message.accountId)
        try storeCall { try store.changeFlag(flag, to: text == "1", emailId: id, context: context) }
        services?.writeBack.journalChanged(accountId: message.accountId)
    }
}
