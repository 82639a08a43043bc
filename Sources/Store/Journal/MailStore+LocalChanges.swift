import Foundation
import GRDB

/// Why the store refused a file operation (the tree maps these to errno).
public enum LocalChangeError: Error, Equatable, Sendable {
    /// The message is not (or no longer) where the operation says.
    case notFound
    /// The operation makes no sense here (e.g. an archived message that is in a folder).
    case notPermitted
    /// rm outside trash/ and spam/ on an account with no Trash folder, where deleting for
    /// good was not asked for (`delete_without_trash`).
    case noTrash
}

/// The tree's write side (docs/REQUIREMENTS.md §C4): every user change is applied to the store at
/// once and written to the journal in the same transaction, before the file operation
/// returns. Imported (offline) accounts have no server: their rows finish at once.
extension MailStore {
    /// `setfattr user.mailfs.seen|flagged`. A change that undoes a still-pending one of
    /// the same flag cancels it instead of adding a row.
    public func changeFlag(_ flag: UserFlag, to value: Bool, emailId: Int64, context: WriteContext) throws {
        try pool.write { db in
            guard let current = try Bool.fetchOne(db, sql: "SELECT \(flag.column) FROM email WHERE id = ?",
                                                  arguments: [emailId]) else { throw LocalChangeError.notFound }
            guard current != value else { return }
            try Self.setFlag(flag, to: value, emailId: emailId, db: db)
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
        try pool.write { db in
            if try LostAndFound.record(operation, emailId: emailId, db: db) {
                _ = try Self.rethread(db, accountId: context.accountId)
                return .recorded
            }
            let now = Date()
            try Self.pruneDone(db, accountId: context.accountId, now: now)
            var planner = OperationPlanner(
                writer: try JournalWriter(db: db, context: context, now: now, deletion: operation.isDeletion),
                emailId: emailId)
            try planner.plan(operation)
            try planner.writer.finishIfOffline()
            // Offline, a deletion is final at once: its thread is settled with it.
            if context.isOffline { _ = try Self.rethread(db, accountId: context.accountId) }
            guard planner.writer.state == .held else { return .recorded }
            return planner.writer.tripsGuard ? .trippedGuard : .held
        }
    }

    /// Done rows are kept one minute for the guard's window, then dropped.
    static func pruneDone(_ db: Database, accountId: Int64, now: Date) throws {
        try db.cachedStatement(sql: "DELETE FROM change WHERE accountId = ? AND state = 'done' AND createdAt < ?")
            .execute(arguments: [accountId, now.addingTimeInterval(-120)])
    }
}

extension MessageOperation {
    var isDeletion: Bool {
        switch self {
        case .remove, .removeArchived: return true
        case .move, .archive, .unarchive: return false
        }
    }
}
