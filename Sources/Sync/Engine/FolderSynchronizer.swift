import Activity
import Foundation
import IMAP
import Logging
import MailCore
import Store

/// Syncs one folder over one connection (FR-SYNC-01/02): UIDVALIDITY check, deletions by
/// UID set difference against `UID SEARCH ALL` (never against a SINCE result), flag
/// changes (CHANGEDSINCE when CONDSTORE is offered, else a FLAGS compare), then new
/// messages of the sync window in batches, each batch a checkpoint. A folder unchanged since
/// its last complete sync (`isUnchanged`) stops after EXAMINE.
struct FolderSynchronizer {
    let store: SyncStore
    let accountId: Int64
    let windowDays: Int
    let rawStoreMaxBytes: Int
    let log: EventLog
    let progress: @Sendable (_ fetched: Int, _ total: Int) -> Void
    let logger: Logger

    /// Messages per metadata batch; bodies are fetched in groups of at most `bodyBatchBytes`.
    static let batchSize = 200
    static let bodyBatchBytes = 8 << 20

    struct Result: Sendable {
        var added = 0
        var linked = 0
        var removed = 0
        var flagChanges = 0
        var failed = 0
        /// Nothing changed since the folder's last complete sync: EXAMINE was all it took.
        var unchanged = false

        /// Whether anything of the folder's messages changed (the log says what).
        var changedMessages: Bool { added + linked + removed + flagChanges > 0 }

        /// Whether threads need recomputing: messages came, moved or went. Flag changes
        /// keep their threads' unread counts themselves (`applyServerFlags`), so they owe
        /// no rethread.
        var changedThreads: Bool { added + linked + removed > 0 }
    }

    func sync(_ folder: FolderRecord, over connection: IMAPConnection) async throws -> Result {
        guard let folderId = folder.id else { return Result() }
        let mailbox = try await connection.examine(folder.imapPath)
        let windowStart = Self.windowStart(daysBack: windowDays + 1)
        if Self.isUnchanged(folder, mailbox, windowStart: windowStart, listed: try store.listedCount(folderId: folderId)) {
            try store.saveCheckpoint(folderId: folderId, SyncStore.FolderCheckpoint(
                uidValidity: folder.uidValidity ?? 0, uidNext: folder.uidNext, highestModSeq: folder.highestModSeq,
                lastSyncedUID: folder.lastSyncedUID), settled: Self.settled(mailbox, windowStart: windowStart))
            return Result(unchanged: true)
        }
        let uidValidity = Int64(mailbox.uidValidity ?? 0)
        var lastSyncedUID = folder.lastSyncedUID
        var checkpointModSeq = folder.highestModSeq
        let reset = folder.uidValidity != nil && folder.uidValidity != uidValidity
        if reset {
            log.record("\(folder.path): UIDVALIDITY changed (\(folder.uidValidity ?? 0) -> \(uidValidity)); re-associating known messages",
                       level: .warning)
            try store.beginUIDValidityReset(folderId: folderId, newUIDValidity: uidValidity)
            lastSyncedUID = 0
            checkpointModSeq = nil
        }
        var result = Result()
        let serverUIDs = Set(try await connection.uidSearch(.all).map(Int64.init))
        let known = try store.knownMessages(folderId: folderId)
        let vanished = Set(known.keys).subtracting(serverUIDs)
        if !vanished.isEmpty {
            result.removed = try store.removeFromFolder(folderId: folderId, uids: vanished.sorted())
        }
        result.flagChanges = try await syncFlags(folderId: folderId, known: known.filter { serverUIDs.contains($0.key) },
                                                 modSeq: checkpointModSeq, connection: connection)
        let inWindow = try await connection.uidSearch(.since(windowStart))
        let missing = inWindow.map(Int64.init).filter { known[$0] == nil }.sorted()
        var fetched = 0
        progress(0, missing.count)
        try await fetchNew(inBatches: missing, folderId: folderId, connection: connection, into: &result) { batch in
            fetched += batch.count
            lastSyncedUID = max(lastSyncedUID, batch.last ?? 0)
            try store.saveCheckpoint(folderId: folderId, SyncStore.FolderCheckpoint(
                uidValidity: uidValidity, uidNext: mailbox.uidNext.map(Int64.init),
                highestModSeq: checkpointModSeq, lastSyncedUID: lastSyncedUID), settled: nil)
            progress(fetched, missing.count)
        }
        if reset { try store.dropStaleAssociations(folderId: folderId) }
        // The modseq is stored only now: every change up to it has been applied.
        try store.saveCheckpoint(folderId: folderId, SyncStore.FolderCheckpoint(
            uidValidity: uidValidity, uidNext: mailbox.uidNext.map(Int64.init),
            highestModSeq: mailbox.highestModSeq.map { Int64(clamping: $0) },
            lastSyncedUID: lastSyncedUID), settled: result.failed == 0 ? Self.settled(mailbox, windowStart: windowStart) : nil)
        return result
    }

    /// Whether the folder is as its last complete sync left it, on the server (same
    /// UIDVALIDITY and UIDNEXT: nothing added; as many messages: nothing removed; same
    /// HIGHESTMODSEQ: no flag changed; a window that did not widen) and here (as many
    /// messages listed). Then EXAMINE was all the sync needed to ask (docs/SYNC-RULES.md,
    /// "A folder with nothing new"). Without CONDSTORE flags could have changed unseen: no.
    static func isUnchanged(_ folder: FolderRecord, _ mailbox: SelectedMailbox, windowStart: Date, listed: Int?) -> Bool {
        guard let settledMessages = folder.settledMessages, let since = folder.settledSince,
              let links = folder.settledLinks, let validity = mailbox.uidValidity, let uidNext = mailbox.uidNext,
              let modSeq = mailbox.highestModSeq
        else { return false }
        return folder.uidValidity == Int64(validity) && folder.uidNext == Int64(uidNext)
            && folder.highestModSeq == Int64(clamping: modSeq) && settledMessages == mailbox.exists
            && windowStart >= since && listed == links
    }

    private static func settled(_ mailbox: SelectedMailbox, windowStart: Date) -> SyncStore.SettledFolder {
        SyncStore.SettledFolder(serverMessages: mailbox.exists, windowStart: windowStart)
    }

    /// Server flags win (FR-SYNC-05). With CONDSTORE only what changed since the stored
    /// modseq is fetched; otherwise all known UIDs' FLAGS are compared.
    private func syncFlags(folderId: Int64, known: [Int64: SyncStore.StoredFlags], modSeq: Int64?,
                           connection: IMAPConnection) async throws -> Int {
        guard !known.isEmpty else { return 0 }
        var fetched: [FetchAttributes] = []
        if let modSeq, connection.supports(.condStore) {
            fetched = try await connection.uidFetch(UIDSet(uids: known.keys.map { UInt32(clamping: $0) }),
                                                    items: [.flags], changedSince: UInt64(modSeq))
        } else {
            for chunk in await connection.commandSizedChunks(of: UIDSet(uids: known.keys.map { UInt32(clamping: $0) })) {
                fetched += try await connection.uidFetch(chunk, items: [.flags])
            }
        }
        var changes: [Int64: SyncStore.StoredFlags] = [:]
        for attributes in fetched {
            guard let uid = attributes.uid.map(Int64.init), let flags = attributes.flags else { continue }
            let server = Self.storedFlags(flags)
            if known[uid] != server { changes[uid] = server }
        }
        return changes.isEmpty ? 0 : try store.applyServerFlags(folderId: folderId, changes)
    }

    static func storedFlags(_ flags: [String]) -> SyncStore.StoredFlags {
        let lower = Set(flags.map { $0.lowercased() })
        return SyncStore.StoredFlags(seen: lower.contains("\\seen"), flagged: lower.contains("\\flagged"),
                                     answered: lower.contains("\\answered"), draft: lower.contains("\\draft"))
    }

    static func messageFlags(_ flags: [String]) -> MessageFlags {
        let stored = storedFlags(flags)
        return MessageFlags(seen: stored.seen, flagged: stored.flagged, answered: stored.answered,
                            draft: stored.draft, deleted: flags.contains { $0.lowercased() == "\\deleted" })
    }

    /// The start of a `SEARCH SINCE` window. SINCE compares dates only, in the server's
    /// time zone: the caller widens the window by a day (docs/IMAP-QUIRKS.md §3.6).
    static func windowStart(daysBack: Int, now: Date = Date()) -> Date {
        now.addingTimeInterval(-Double(daysBack) * 86_400)
    }
}
