import Foundation
import IMAP
import MailCore
import Store

/// CREATE, RENAME and DELETE. A folder's server name is built when the change is applied,
/// from its tree path and the server's hierarchy delimiter; an existing parent keeps its
/// server name (`INBOX.Projects` stays the parent of `INBOX.Projects.2026`).
extension ChangeApplier {
    func applyFolderName(_ row: JournalChange, over connection: IMAPConnection) async throws -> MailStore.ChangeOutcome {
        guard let id = row.id else { throw Refusal(reason: "no row") }
        guard let folderId = row.folderId, let folder = try store.folder(id: folderId) else {
            return .init(id: id, event: .applied, gone: true)
        }
        let delimiter = try await hierarchyDelimiter(over: connection)
        let name = try serverName(forPath: folder.path, delimiter: delimiter)
        let existing = Set(try await connection.list().map(\.name))
        if row.kind == .createFolder || folder.imapPath.hasPrefix("mailfs-creating:") {
            if !existing.contains(name) { try await connection.create(name) }
        } else if folder.imapPath != name, !(existing.contains(name) && !existing.contains(folder.imapPath)) {
            try await connection.rename(folder.imapPath, to: name)
        }
        return .init(id: id, event: .applied, folderName: name, delimiter: delimiter)
    }

    func applyFolderDeletion(_ row: JournalChange, over connection: IMAPConnection) async throws -> MailStore.ChangeOutcome {
        guard let id = row.id else { throw Refusal(reason: "no row") }
        guard let folderId = row.folderId, let folder = try store.folder(id: folderId),
              !folder.imapPath.hasPrefix("mailfs-") else { return .init(id: id, event: .applied) }
        guard try await connection.list().contains(where: { $0.name == folder.imapPath }) else {
            return .init(id: id, event: .applied)
        }
        let mailbox = try await connection.examine(folder.imapPath)
        guard mailbox.exists == 0 else {
            throw Refusal(reason: "\(folder.path) is not empty on the server (\(mailbox.exists) messages)")
        }
        try await connection.delete(folder.imapPath)
        return .init(id: id, event: .applied)
    }

    /// The server's delimiter (LIST "" ""); "/" for a flat namespace.
    private func hierarchyDelimiter(over connection: IMAPConnection) async throws -> String {
        let root = try await connection.list(reference: "", pattern: "")
        return root.first?.delimiter.map(String.init) ?? "/"
    }

    /// The server name for a tree path: under the nearest parent that has a server name,
    /// each remaining component in modified UTF-7.
    private func serverName(forPath path: String, delimiter: String) throws -> String {
        var components = path.split(separator: "/").map(String.init)
        guard let last = components.popLast() else { throw Refusal(reason: "empty folder name") }
        guard let accountId = try store.account(named: account.name)?.id else { throw Refusal(reason: "no account") }
        let folders = try store.folders(accountId: accountId)
        var suffix = [last]
        while !components.isEmpty {
            let parentPath = components.joined(separator: "/")
            if let parent = folders.first(where: { $0.path == parentPath }), !parent.imapPath.hasPrefix("mailfs-") {
                return ([parent.imapPath] + suffix.map(ModifiedUTF7.encode)).joined(separator: delimiter)
            }
            suffix.insert(components.removeLast(), at: 0)
        }
        return suffix.map(ModifiedUTF7.encode).joined(separator: delimiter)
    }
}
