import Foundation
import GRDB

/// The tree's write side (docs/REQUIREMENTS.md §C4): every user change is applied to the store at
/// once and written to the journal in the same transaction, before the file operation
/// returns. Imported (offline) accounts have no server: their rows finish at once.
extension TreeStore {
    /// `setfattr user.mailfs.seen|flagged`. A change that undoes a still-pending one of
    /// the same flag cancels it instead of adding a row.
    public func changeFlag(_ flag: UserFlag, to value: Bool, emailId: Int64, context: WriteContext) throws {
        try store.pool.write { db in
            guard let current = try Bool.fetchOne(db, sql: "SELECT \(flag.column) FROM email WHERE id = ?",
                                                  arguments: [emailId]) else { throw LocalChangeError.notFound }
            guard current != value else { return }
            try MailStore.setFlag(flag, to: value, emailId: emailId, db: db)
            guard !context.isOffline else { return }
            if var waiting = try JournalChange
                .filter(Column("emailId") == emailId && Column("kind") == ChangeKind.flag.rawValue
                        && Column("flag") == flag.rawValue && Column("state") == ChangeState.pending.rawValue)
                .fetchOne(db) {
                if waiting.previousValue == value { _ = try waiting.delete(db); return }
                waiting.value = value
                try waiting.update(db, columns: ["value"])
                return
            }
            var writer = try JournalWriter(db: db, context: context, now: Date(), deletion: false)
            try writer.insert(.flag) { row in
                row.emailId = emailId
                row.flag = flag.rawValue
                row.value = value
                row.previousValue = current
            }
        }
    }

    /// rm and mv of a message. Returns whether the guard held it.
    @discardableResult
    public func record(_ operation: MessageOperation, emailId: Int64, context: WriteContext) throws -> RecordOutcome {
        try store.pool.write { db in
            if try LostAndFound.record(operation, emailId: emailId, db: db) {
                _ = try MailStore.rethread(db, accountId: context.accountId)
                return .recorded
            }
            let now = Date()
            try MailStore.pruneDone(db, accountId: context.accountId, now: now)
            var planner = OperationPlanner(
                writer: try JournalWriter(db: db, context: context, now: now, deletion: operation.isDeletion),
                emailId: emailId)
            try planner.plan(operation)
            try planner.writer.finishIfOffline()
            // Offline, a deletion is final at once: its thread is settled with it.
            if context.isOffline { _ = try MailStore.rethread(db, accountId: context.accountId) }
            guard planner.writer.state == .held else { return .recorded }
            return planner.writer.tripsGuard ? .trippedGuard : .held
        }
    }
}
