import Activity
import Foundation
import IMAP
import MailCore
import Store

/// After delivery, the copy in the Sent folder (FR-SYNC-07 `requiresSentAppend`: generic
/// IMAP servers; Gmail files sent mail itself). The row leaves the queue once appended;
/// if the APPEND fails it is tried again at the next round, never the SMTP send.
///
/// The APPEND is journaled like the write-back's: the row is `filing` before the APPEND
/// goes out, and a row found `filing` (a run died between the APPEND and the row leaving
/// the queue) is looked for in Sent first, by Message-ID, size and header, so the copy is
/// filed once.
struct SentCopyAppender: Sendable {
    let store: SyncStore
    let pool: ConnectionPool
    let connector: AccountConnector
    let activity: AccountActivity
    /// Runs a sync of the Sent folder, so the copy appears in sent/ at once.
    let syncSent: @Sendable () -> Void

    /// Where a copy is, and whether this run appended it (or found it from an earlier run).
    struct FiledCopy {
        var sent: FolderRecord
        var appended: Bool
    }

    /// Files every accepted message's copy, then syncs once so they show in sent/.
    func appendPending(accountId: Int64) async {
        guard let pending = try? store.acceptedItems(accountId: accountId), !pending.isEmpty else { return }
        var filed = 0
        for item in pending where await file(itemId: item.id) { filed += 1 }
        if filed > 0 { syncSent() }
    }

    /// Returns whether the copy is in Sent now (else it is tried again at the next round).
    private func file(itemId: Int64) async -> Bool {
        do {
            guard let copy = try await putInSent(itemId: itemId) else { return false }
            try store.transition(send: itemId, .filed)
            activity.log.record(copy.appended ? "outbox: copy saved in \(copy.sent.path)"
                                : "outbox: copy found in \(copy.sent.path), saved before the mount stopped")
            return true
        } catch {
            activity.log.record("outbox: saving the sent copy failed: \(AccountSynchronizer.describe(error, store: store)); will retry",
                                level: .warning)
            return false
        }
    }

    /// The copy's APPEND, unless a run that died after its APPEND already put it in Sent;
    /// nil when it must wait (no Sent folder known yet, the row gone). The row stays until
    /// `filed`, which the caller records.
    func putInSent(itemId: Int64) async throws -> FiledCopy? {
        guard let item = try store.outboxItem(id: itemId), item.state.isAccepted,
              let data = try store.outboxData(id: itemId) else { return nil }
        guard let sent = try store.folders(accountId: item.accountId).first(where: { $0.type == .sent && $0.isSelectable }) else {
            activity.log.record("outbox: no Sent folder known yet; the sent copy waits for a sync", level: .warning)
            return nil
        }
        let appended = try await pool.withConnection(open: { try await connector.openOnce(phase: { _ in }) }) { connection in
            // Read again on each try: the pool runs this once more on a fresh connection
            // when a reused one dies, possibly after the APPEND.
            if try store.outboxItem(id: itemId)?.state == .filing,
               try await isInSent(data, sent: sent, over: connection) {
                return false
            }
            try store.transition(send: itemId, .appendingCopy)
            _ = try await connection.append(mailbox: sent.imapPath, flags: ["\\Seen"], date: item.acceptedAt, message: data)
            return true
        }
        return FiledCopy(sent: sent, appended: appended)
    }

    private func isInSent(_ data: [UInt8], sent: FolderRecord, over connection: IMAPConnection) async throws -> Bool {
        guard let messageId = MessageParser.messageID(ofHeader: data) else { return false }
        _ = try await connection.examine(sent.imapPath)
        let match = ServerMatch(fingerprint: MessageFingerprint(message: data), size: data.count)
        return try await connection.uid(ofMessage: messageId, matching: match) != nil
    }
}
