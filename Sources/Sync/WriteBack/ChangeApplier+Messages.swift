import Foundation
import IMAP
import MailCore
import Store

/// The IMAP side of message changes. Each step first checks where the messages are now
/// (UID SEARCH in the source; in the target, the Message-ID confirmed by size and header,
/// `ServerMatch`), so replaying a change after a crash never applies it twice.
extension ChangeApplier {
    func apply(_ rows: [JournalChange], over connection: IMAPConnection) async throws -> [SyncStore.ChangeOutcome] {
        let batch = try await withServerUIDs(rows, over: connection)
        guard let head = batch.first else { return [] }
        switch head.kind {
        case .flag: return try await applyFlags(batch, over: connection)
        case .move: return try await applyMoves(batch, over: connection)
        case .expunge: return try await applyExpunges(batch, over: connection)
        case .copyFromAll: return try await applyCopiesFromAll(batch, over: connection)
        case .archiveToAll: return try await applyArchives(batch, over: connection)
        case .append: return [try await applyAppend(head, over: connection)]
        case .createFolder, .renameFolder: return [try await applyFolderName(head, over: connection)]
        case .deleteFolder: return [try await applyFolderDeletion(head, over: connection)]
        }
    }

    /// A row recorded while its message was still arriving in the source (moved twice
    /// before the first move reached the server) names a placeholder: use the UID the
    /// store has now, else find the message in the source.
    private func withServerUIDs(_ rows: [JournalChange], over connection: IMAPConnection) async throws -> [JournalChange] {
        var resolved = rows
        for index in resolved.indices {
            guard let uid = resolved[index].uid, PlaceholderUID.isPlaceholder(uid),
                  let folderId = resolved[index].folderId else { continue }
            if let emailId = resolved[index].emailId, let current = try store.currentUID(emailId: emailId, folderId: folderId),
               !PlaceholderUID.isPlaceholder(current) {
                resolved[index].uid = current
            } else if let folder = try store.folder(id: folderId),
                      let found = try await find(resolved[index], in: folder, over: connection) {
                resolved[index].uid = Int64(found)
            }
        }
        return resolved
    }

    /// STORE in every folder holding each message (Gmail: one, labels share flags).
    private func applyFlags(_ batch: [JournalChange], over connection: IMAPConnection) async throws -> [SyncStore.ChangeOutcome] {
        guard let head = batch.first, let flagName = head.flag, let flag = UserFlag(rawValue: flagName) else { return [] }
        var byFolder: [Int64: (folder: FolderRecord, uids: [UInt32])] = [:]
        for row in batch {
            guard let emailId = row.emailId else { continue }
            let targets = try store.flagTargets(emailId: emailId)
            for target in isGmail ? Array(targets.prefix(1)) : targets {
                guard let folderId = target.folder.id else { continue }
                byFolder[folderId, default: (target.folder, [])].uids.append(UInt32(clamping: target.uid))
            }
        }
        let imapFlag = flag == .seen ? "\\Seen" : "\\Flagged"
        let operation: StoreOperation = head.value == true ? .add : .remove
        for (_, entry) in byFolder.sorted(by: { $0.key < $1.key }) {
            let mailbox = try await connection.select(entry.folder.imapPath)
            for chunk in await connection.commandSizedChunks(of: UIDSet(uids: entry.uids)) {
                if let known = entry.folder.highestModSeq, known > 0, mailbox.highestModSeq != nil,
                   connection.supports(.condStore) {
                    try await storeConditionally(chunk, flag: imapFlag, operation, knownModSeq: UInt64(known), over: connection)
                } else {
                    try await connection.uidStore(chunk, flags: [imapFlag], operation)
                }
            }
        }
        return batch.compactMap { $0.id.map { .init(id: $0, event: .applied) } }
    }

    /// CONDSTORE (FR-SYNC-05, the server is authoritative): the STORE applies only to
    /// messages unchanged since the last sync. A message changed meanwhile is looked at
    /// again: if the server already has the wanted value, nothing is sent; otherwise the
    /// STORE is repeated against the mod-sequence just read, so a change landing in
    /// between is noticed again (twice in a row: refused, and retried later).
    private func storeConditionally(_ uids: UIDSet, flag: String, _ operation: StoreOperation, knownModSeq: UInt64,
                                    over connection: IMAPConnection) async throws {
        let first = try await connection.uidStore(uids, flags: [flag], operation, unchangedSince: knownModSeq)
        guard !first.modified.isEmpty else { return }
        let current = try await connection.uidFetch(first.modified, items: [.flags, .modSeq])
        let wanted = operation == .add
        for attributes in current {
            guard let uid = attributes.uid, let modSeq = attributes.modSeq,
                  (attributes.flags ?? []).contains(where: { $0.caseInsensitiveCompare(flag) == .orderedSame }) != wanted
            else { continue }
            let again = try await connection.uidStore(UIDSet(uids: [uid]), flags: [flag], operation, unchangedSince: modSeq)
            if !again.modified.isEmpty { throw Refusal(reason: "the message keeps changing on the server") }
        }
    }

    private func applyMoves(_ batch: [JournalChange], over connection: IMAPConnection) async throws -> [SyncStore.ChangeOutcome] {
        let (source, target) = try folders(of: batch)
        var batch = batch
        let present = try await presentUIDs(&batch, in: source, over: connection)
        var outcomes: [Int64: SyncStore.ChangeOutcome] = [:]
        var toMove = batch.filter { present.contains(UInt32(clamping: $0.uid ?? 0)) }
        // An interrupted COPY path may have copied already: only the source copy goes then.
        if !connection.supports(.move) {
            var copied: [JournalChange] = []
            for row in toMove where row.interrupted {
                if let uid = try await find(row, in: target, over: connection) {
                    copied.append(row)
                    if let id = row.id { outcomes[id] = .init(id: id, event: .applied, targetUID: Int64(uid)) }
                }
            }
            if !copied.isEmpty {
                _ = try await connection.select(source.imapPath)
                try await removeFromSelected(copied.compactMap { $0.uid.map { UInt32(clamping: $0) } }, over: connection)
                toMove.removeAll { row in copied.contains { $0.id == row.id } }
            }
        }
        if !toMove.isEmpty {
            _ = try await connection.select(source.imapPath)
            let mapping = try await move(toMove.compactMap { $0.uid.map { UInt32(clamping: $0) } }, to: target, over: connection)
            for row in toMove {
                guard let id = row.id else { continue }
                outcomes[id] = .init(id: id, event: .applied, targetUID: mapping[UInt32(clamping: row.uid ?? 0)].map(Int64.init))
            }
        }
        for row in batch where !present.contains(UInt32(clamping: row.uid ?? 0)) {
            guard let id = row.id, outcomes[id] == nil else { continue }
            // Already moved (by us before a crash, or by another client), or gone.
            let found = try await find(row, in: target, over: connection)
            outcomes[id] = .init(id: id, event: .applied, targetUID: found.map(Int64.init), gone: found == nil)
        }
        return batch.compactMap { $0.id.flatMap { outcomes[$0] } }
    }

    /// UID MOVE where offered; else COPY, then `\Deleted` and UID EXPUNGE of exactly those
    /// UIDs. Returns source UID -> target UID when the server says (COPYUID).
    private func move(_ uids: [UInt32], to target: FolderRecord, over connection: IMAPConnection) async throws -> [UInt32: UInt32] {
        var mapping: [UInt32: UInt32] = [:]
        for chunk in await connection.commandSizedChunks(of: UIDSet(uids: uids)) {
            let copied: CopiedUIDs?
            if connection.supports(.move) {
                copied = try await connection.uidMove(chunk, to: target.imapPath)
            } else {
                copied = try await connection.uidCopy(chunk, to: target.imapPath)
                reached(.afterCopy)
                try await removeFromSelected(chunk.expanded() ?? [], over: connection)
            }
            if let copied, let from = copied.source.expanded(), let to = copied.destination.expanded(), from.count == to.count {
                for (old, new) in zip(from, to) { mapping[old] = new }
            }
        }
        return mapping
    }

    private func applyExpunges(_ batch: [JournalChange], over connection: IMAPConnection) async throws -> [SyncStore.ChangeOutcome] {
        guard let folderId = batch.first?.folderId, let source = try store.folder(id: folderId) else {
            return batch.compactMap { $0.id.map { .init(id: $0, event: .applied, gone: true) } }
        }
        var batch = batch
        let present = try await presentUIDs(&batch, in: source, over: connection)
        if !present.isEmpty { try await removeFromSelected(Array(present), over: connection) }
        return batch.compactMap { $0.id.map { .init(id: $0, event: .applied) } }
    }

    /// `\Deleted` then UID EXPUNGE of these UIDs of the selected mailbox. Without UIDPLUS a
    /// plain EXPUNGE would also remove other clients' `\Deleted` messages: it is issued only
    /// when no other message is marked, else the marks stay for the other client to expunge.
    func removeFromSelected(_ uids: [UInt32], over connection: IMAPConnection) async throws {
        for chunk in await connection.commandSizedChunks(of: UIDSet(uids: uids)) {
            try await connection.uidStore(chunk, flags: ["\\Deleted"], .add)
            if connection.supports(.uidPlus) {
                try await connection.uidExpunge(chunk)
            } else {
                let marked = try await connection.uidSearch(.deleted)
                if marked.allSatisfy({ chunk.contains($0) }) {
                    try await connection.expunge()
                } else {
                    activity.log.record("write-back: no UIDPLUS and other messages are marked \\Deleted: "
                                        + "left marked for the other client's EXPUNGE", level: .warning)
                }
            }
        }
    }

    /// Gmail archive (FR-SYNC-10): the messages are copied to All Mail before they leave
    /// their label, so none depends on the account's setting for mail expunged from its
    /// last visible folder ("archive", "move to Trash" or "delete forever"), nor on All Mail
    /// holding only what some folder holds. A server without All Mail refuses the batch
    /// before anything is expunged; a COPY refused leaves every message where it was. A
    /// replay after a crash copies again: where All Mail is a view of the other folders, a
    /// search there would find the message through the label about to be removed.
    private func applyArchives(_ batch: [JournalChange], over connection: IMAPConnection) async throws -> [SyncStore.ChangeOutcome] {
        guard let folderId = batch.first?.folderId, let source = try store.folder(id: folderId) else {
            return batch.compactMap { $0.id.map { .init(id: $0, event: .applied, gone: true) } }
        }
        let allMail = try await allMailName(over: connection)
        var batch = batch
        let present = try await presentUIDs(&batch, in: source, over: connection)
        for chunk in await connection.commandSizedChunks(of: UIDSet(uids: Array(present))) {
            _ = try await connection.uidCopy(chunk, to: allMail)
        }
        reached(.afterArchiveCopy)
        if !present.isEmpty { try await removeFromSelected(Array(present), over: connection) }
        return batch.compactMap { $0.id.map { .init(id: $0, event: .applied) } }
    }

    /// The server name of Gmail's All Mail (`\All`, RFC 6154; its name is localized).
    private func allMailName(over connection: IMAPConnection) async throws -> String {
        guard let all = try await connection.list().first(where: { $0.attributes.contains("\\all") }) else {
            throw Refusal(reason: "the server has no All Mail (\\All) folder; archiving would delete the message")
        }
        return all.name
    }

    /// Gmail: the message is found in All Mail (by Message-ID, confirmed by size and
    /// header) and copied to the target.
    private func applyCopiesFromAll(_ batch: [JournalChange], over connection: IMAPConnection) async throws -> [SyncStore.ChangeOutcome] {
        guard let targetId = batch.first?.targetFolderId, let target = try store.folder(id: targetId) else {
            throw Refusal(reason: "the target folder no longer exists")
        }
        _ = try await connection.select(try await allMailName(over: connection))
        var outcomes: [SyncStore.ChangeOutcome] = []
        for row in batch {
            guard let id = row.id else { continue }
            guard let uid = try await searchMessage(row, over: connection) else {
                outcomes.append(.init(id: id, event: .applied, gone: true))
                continue
            }
            let copied = try await connection.uidCopy(UIDSet(uids: [uid]), to: target.imapPath)
            let newUID = copied?.destination.expanded()?.first
            outcomes.append(.init(id: id, event: .applied, targetUID: newUID.map(Int64.init)))
        }
        return outcomes
    }

    /// APPEND, unless a previous run already appended it (the same message in the target).
    private func applyAppend(_ row: JournalChange, over connection: IMAPConnection) async throws -> SyncStore.ChangeOutcome {
        guard let id = row.id else { throw Refusal(reason: "no row") }
        guard let targetId = row.targetFolderId, let target = try store.folder(id: targetId) else {
            throw Refusal(reason: "the target folder no longer exists", permanent: true)
        }
        if let uid = try await findUnlessGone(row, in: target, over: connection) {
            return .init(id: id, event: .applied, targetUID: Int64(uid))
        }
        guard let message = try store.appendContent(changeId: id) else {
            throw Refusal(reason: "the message is gone", permanent: true)
        }
        let appended = try await connection.append(mailbox: target.imapPath, flags: AppendFlags.list(row.flag),
                                                   message: message)
        return .init(id: id, event: .applied, targetUID: appended.map { Int64($0.uid) })
    }

    /// `find`, where a mailbox the server no longer has holds nothing: the APPEND then gets
    /// the server's own answer (`[TRYCREATE]`), which says it for good (Dovecot's EXAMINE
    /// of a missing mailbox has no response code).
    private func findUnlessGone(_ row: JournalChange, in folder: FolderRecord,
                                over connection: IMAPConnection) async throws -> UInt32? {
        do {
            return try await find(row, in: folder, over: connection)
        } catch let error as IMAPError where error.isMailboxGone {
            return nil
        }
    }

    /// The source and target folders of a move batch; a missing one refuses the batch.
    private func folders(of batch: [JournalChange]) throws -> (FolderRecord, FolderRecord) {
        guard let sourceId = batch.first?.folderId, let source = try store.folder(id: sourceId) else {
            throw Refusal(reason: "the source folder no longer exists")
        }
        guard let targetId = batch.first?.targetFolderId, let target = try store.folder(id: targetId) else {
            throw Refusal(reason: "the target folder no longer exists")
        }
        return (source, target)
    }

    /// Which of the batch's UIDs the source still holds (selects the source). Under a new
    /// UIDVALIDITY the recorded UIDs name nothing: each message is found again (the batch's
    /// rows get those UIDs), and one without a Message-ID counts as gone.
    private func presentUIDs(_ batch: inout [JournalChange], in source: FolderRecord,
                             over connection: IMAPConnection) async throws -> Set<UInt32> {
        let mailbox = try await connection.select(source.imapPath)
        if let current = mailbox.uidValidity.map(Int64.init) {
            for index in batch.indices where batch[index].uidValidity.map({ $0 != current }) ?? false {
                batch[index].uid = try await searchMessage(batch[index], over: connection).map(Int64.init) ?? 0
                batch[index].uidValidity = current
            }
        }
        let uids = batch.compactMap { $0.uid.map { UInt32(clamping: $0) } }.filter { $0 > 0 }
        var present = Set<UInt32>()
        for chunk in await connection.commandSizedChunks(of: UIDSet(uids: uids)) {
            present.formUnion(try await connection.uidSearch(.uids(chunk)))
        }
        return present.intersection(uids)
    }

    /// The UID of the row's message in `folder` (examines it).
    private func find(_ row: JournalChange, in folder: FolderRecord, over connection: IMAPConnection) async throws -> UInt32? {
        guard row.messageId?.isEmpty == false else { return nil }
        _ = try await connection.examine(folder.imapPath)
        return try await searchMessage(row, over: connection)
    }

    /// The UID of the row's message in the selected mailbox (`uid(ofMessage:matching:)`).
    /// When the store no longer has the message its Message-ID is all there is to go by.
    private func searchMessage(_ row: JournalChange, over connection: IMAPConnection) async throws -> UInt32? {
        guard let messageId = row.messageId else { return nil }
        let match = try row.emailId.flatMap { try store.serverMatch(emailId: $0) }
        return try await connection.uid(ofMessage: messageId, matching: match)
    }
}
