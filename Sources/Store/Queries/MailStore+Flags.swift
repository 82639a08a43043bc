import Foundation
import GRDB

/// The two flags the tree exposes as extended attributes (user.mailfs.seen/flagged).
public enum UserFlag: String, Sendable, CaseIterable {
    case seen, flagged

    var column: String { self == .seen ? "isRead" : "isStarred" }
}

extension MailStore {
    /// Sets a flag with no journal row (a user's change goes through `changeFlag`); tests
    /// set up their messages with it. Thread unread counts follow.
    func setFlag(_ flag: UserFlag, to value: Bool, emailId: Int64) throws {
        try pool.write { db in try Self.setFlag(flag, to: value, emailId: emailId, db: db) }
    }

    /// The flag's column, and the thread's unread count with it, in the caller's transaction.
    static func setFlag(_ flag: UserFlag, to value: Bool, emailId: Int64, db: Database) throws {
        try db.cachedStatement(sql: "UPDATE email SET \(flag.column) = ? WHERE id = ?").execute(arguments: [value, emailId])
        guard flag == .seen else { return }
        try recountUnread(threadOf: emailId, db: db)
    }

    /// Recounts the unread messages of the message's thread. Every write of `isRead` does it
    /// in its own transaction, so flag changes never need a rethread of the account.
    static func recountUnread(threadOf emailId: Int64, db: Database) throws {
        try db.cachedStatement(sql: """
            UPDATE thread SET unreadCount =
                (SELECT COUNT(*) FROM email e WHERE e.threadId = thread.id AND e.isRead = 0)
            WHERE id = (SELECT threadId FROM email WHERE id = ?)
            """).execute(arguments: [emailId])
    }
}
