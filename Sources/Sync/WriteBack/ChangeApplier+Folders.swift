import Foundation
import IMAP
import MailCore
import Store

/// CREATE, RENAME and DELETE. A folder's server name is built when the change is applied,
/// from its tree path and the account's namespace (`FolderServerName`); an existing parent
/// keeps its server name (`INBOX.Projects` stays the parent of `INBOX.Projects.2026`).
extension ChangeApplier {
    func applyFolderName(_ row: JournalChange, over connection: IMAPConnection) async throws -> SyncStore.ChangeOutcome {
        guard let id = row.id else { throw Refusal(reason: "no row") }
        guard let folderId = row.folderId, let folder = try store.folder(id: folderId) else {
            return .init(id: id, event: .applied, gone: true)
        }
        let listed = try await connection.list()
        let namespace = try await NamespaceReader.read(over: connection, listed: listed)
        let name = try serverName(forPath: folder.path, namespace: namespace)
        let delimiter = String(namespace.delimiter ?? "/")
        let existing = Set(listed.map(\.name))
        if row.kind == .createFolder || folder.imapPath.hasPrefix("mailfs-creating:") {
            if !existing.contains(name) { try await connection.create(name) }
        } else if folder.imapPath != name, !(existing.contains(name) && !existing.contains(folder.imapPath)) {
            try await connection.rename(folder.imapPath, to: name)
        }
        return .init(id: id, event: .applied, folderName: name, delimiter: delimiter)
    }

    func applyFolderDeletion(_ row: JournalChange, over connection: IMAPConnection) async throws -> SyncStore.ChangeOutcome {
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

    private func serverName(forPath path: String, namespace: AccountNamespace) throws -> String {
        guard let accountId = try store.account(named: account.name)?.id else { throw Refusal(reason: "no account") }
        let folders = try store.folders(accountId: accountId).map { (path: $0.path, imapPath: $0.imapPath) }
        do {
            return try FolderServerName.name(forPath: path, folders: folders, namespace: namespace)
        } catch {
            throw Refusal(reason: error.description, permanent: true)
        }
    }
}
