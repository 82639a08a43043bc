import Foundation
import GRDB

/// Turns one message operation into journal rows and their local effects, following
/// each provider's semantics (docs/SYNC-RULES.md, "Write-back").
struct OperationPlanner {
    var writer: JournalWriter
    let emailId: Int64

    mutating func plan(_ operation: MessageOperation) throws {
        switch operation {
        case .remove(let folderId): try remove(from: folderId)
        case .removeArchived: try removeArchived()
        case .move(let from, let to): try move(from: from, to: to, deletion: false)
        case .archive(let folderId): try archive(from: folderId)
        case .unarchive(let folderId): try unarchive(to: folderId, deletion: false)
        }
    }

    /// To Trash; for good in trash/ or spam/. With no Trash, for good only where the user
    /// said so (`delete_without_trash`) or there is no server (an imported copy); otherwise
    /// refused: a server whose Trash mailfs cannot find must not lose mail to an rm.
    /// Gmail: moving to Trash drops every label, so every other folder loses the message too.
    private mutating func remove(from folderId: Int64) throws {
        let folders = try writer.visibleFolders(emailId: emailId)
        guard let source = folders.first(where: { $0.id == folderId }) else { throw LocalChangeError.notFound }
        let trash = try writer.folder(ofType: .trash)
        let isFinal = source.type == .trash || source.type == .spam
        if trash?.id == nil && !isFinal && !writer.context.deletesWithoutTrash && !writer.context.isOffline {
            throw LocalChangeError.noTrash
        }
        if isFinal || trash?.id == nil {
            try expunge(from: folderId, deletion: true)
            if folders.count == 1 {
                try writer.db.execute(sql: "UPDATE email SET isDeleted = 1 WHERE id = ?", arguments: [emailId])
            }
            return
        }
        guard let trashId = trash?.id else { return }
        try move(from: folderId, to: trashId, deletion: true)
        guard writer.context.isGmail else { return }
        for other in folders where other.id != folderId && other.id != trashId {
            try expunge(from: other.id, deletion: false)
        }
    }

    /// rm in archive/: Gmail copies it from All Mail to Trash; elsewhere it leaves \Archive.
    private mutating func removeArchived() throws {
        if let archived = try archiveAssociation() { return try remove(from: archived) }
        guard writer.context.isGmail, let trashId = try writer.folder(ofType: .trash)?.id else {
            throw LocalChangeError.notPermitted
        }
        try unarchive(to: trashId, deletion: true)
    }

    /// A message already in the target (Gmail label, or a copy) only leaves the source.
    private mutating func move(from source: Int64, to target: Int64, deletion: Bool) throws {
        guard source != target else { return }
        let folders = try writer.visibleFolders(emailId: emailId)
        guard folders.contains(where: { $0.id == source }) else { throw LocalChangeError.notFound }
        if folders.contains(where: { $0.id == target }) { return try expunge(from: source, deletion: deletion) }
        guard let uid = try writer.leave(emailId: emailId, folderId: source) else { throw LocalChangeError.notFound }
        try insertRow(.move, from: source, uid: uid, to: target, deletion: deletion)
    }

    private mutating func expunge(from folderId: Int64, deletion: Bool) throws {
        guard let uid = try writer.leave(emailId: emailId, folderId: folderId) else { throw LocalChangeError.notFound }
        try insertRow(.expunge, from: folderId, uid: uid, to: nil, deletion: deletion)
    }

    /// One row about this message; a target gets its arriving association at once.
    private mutating func insertRow(_ kind: ChangeKind, from source: Int64?, uid: Int64?, to target: Int64?,
                                    deletion: Bool) throws {
        let messageId = try writer.messageId(emailId: emailId)
        let uidValidity = try source.flatMap { try writer.uidValidity(folderId: $0) }
        var row = try writer.insert(kind) { row in
            row.emailId = emailId
            row.messageId = messageId
            row.folderId = source
            row.uid = uid
            row.uidValidity = uidValidity
            row.targetFolderId = target
            row.isDeletion = deletion
        }
        if let target { try writer.arrive(emailId: emailId, folderId: target, row: &row) }
    }

    /// Gmail: out of this label only, copied to All Mail first so that it stays there
    /// (FR-SYNC-10). Elsewhere: into the \Archive folder, created first when the account has none.
    private mutating func archive(from folderId: Int64) throws {
        if writer.context.isGmail {
            guard let uid = try writer.leave(emailId: emailId, folderId: folderId) else { throw LocalChangeError.notFound }
            return try insertRow(.archiveToAll, from: folderId, uid: uid, to: nil, deletion: false)
        }
        let archiveId = try writer.folder(ofType: .archive)?.id ?? createArchiveFolder()
        try move(from: folderId, to: archiveId, deletion: false)
    }

    private mutating func unarchive(to target: Int64, deletion: Bool) throws {
        if let archived = try archiveAssociation() { return try move(from: archived, to: target, deletion: deletion) }
        guard writer.context.isGmail || writer.context.isOffline,
              try writer.visibleFolders(emailId: emailId).isEmpty else { throw LocalChangeError.notPermitted }
        try insertRow(.copyFromAll, from: nil, uid: nil, to: target, deletion: deletion)
    }

    /// The message's association with an \Archive folder (generic servers' archive/).
    private func archiveAssociation() throws -> Int64? {
        try writer.visibleFolders(emailId: emailId).first { $0.type == .archive }?.id
    }

    private mutating func createArchiveFolder() throws -> Int64 {
        let path = try writer.freeFolderPath("Archive")
        let folder = try MailStore.insertLocalFolder(path: path, type: .archive, context: writer.context, db: writer.db)
        try writer.insert(.createFolder) { row in
            row.folderId = folder.id
            row.newPath = path
        }
        guard let id = folder.id else { throw LocalChangeError.notPermitted }
        return id
    }
}
