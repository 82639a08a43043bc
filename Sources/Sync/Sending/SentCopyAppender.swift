import Activity
import Foundation
import IMAP
import Store

/// After delivery, the copy in the Sent folder (FR-SYNC-07 `requiresSentAppend`: generic
/// IMAP servers; Gmail files sent mail itself). The row leaves the queue once appended;
/// if the APPEND fails it is tried again at the next round, never the SMTP send.
struct SentCopyAppender: Sendable {
    let store: MailStore
    let pool: ConnectionPool
    let connector: AccountConnector
    let activity: AccountActivity
    /// Runs a sync of the Sent folder, so the copy appears in sent/ at once.
    let syncSent: @Sendable () -> Void

    /// Appends every accepted message's copy, then syncs once so they show in sent/.
    func appendPending(accountId: Int64) async {
        guard let pending = try? store.acceptedItems(accountId: accountId), !pending.isEmpty else { return }
        var appended = 0
        for item in pending where await append(itemId: item.id) { appended += 1 }
        if appended > 0 { syncSent() }
    }

    /// Returns whether the copy was saved (else it is tried again at the next round).
    private func append(itemId: Int64) async -> Bool {
        do {
            guard let item = try store.outboxItem(id: itemId), item.state == .accepted,
                  let data = try store.outboxData(id: itemId) else { return false }
            guard let sent = try store.folders(accountId: item.accountId).first(where: { $0.type == .sent && $0.isSelectable }) else {
                activity.log.record("outbox: no Sent folder known yet; the sent copy waits for a sync", level: .warning)
                return false
            }
            try await pool.withConnection(open: { try await connector.openOnce(phase: { _ in }) }) { connection in
                _ = try await connection.append(mailbox: sent.imapPath, flags: ["\\Seen"],
                                                date: item.acceptedAt, message: data)
            }
            try store.transition(send: itemId, .filed)
            activity.log.record("outbox: copy saved in \(sent.path)")
            return true
        } catch {
            activity.log.record("outbox: saving the sent copy failed: \(AccountSynchronizer.describe(error, store: store)); will retry",
                                level: .warning)
            return false
        }
    }
}
