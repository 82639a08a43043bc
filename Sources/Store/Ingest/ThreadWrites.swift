import Foundation
import GRDB

/// The rows a rethread writes, through statements prepared once per connection. A
/// rethread of a new import writes a thread row per conversation and moves every message
/// into its thread: GRDB's record `insert` and `updateAll` encode through Codable and
/// build their SQL on each call, which was a third of such a rethread's time (the values
/// bound here are the ones GRDB's records write, as in `EmailInsertion`).
enum ThreadWrites {
    /// Inserts `thread` and sets its id.
    static func insert(_ thread: inout ThreadRecord, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO thread (accountId, dirName, subject, latestDate, messageCount, unreadCount, participants, snippet)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        statement.setUncheckedArguments([
            thread.accountId.databaseValue, thread.dirName.databaseValue, thread.subject.databaseValue,
            thread.latestDate.databaseValue, thread.messageCount.databaseValue, thread.unreadCount.databaseValue,
            thread.participants.databaseValue, thread.snippet.databaseValue,
        ])
        try statement.execute()
        thread.id = db.lastInsertedRowID
    }

    /// Writes the summary columns of a thread that exists (all but its account and name).
    static func updateSummary(of thread: ThreadRecord, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            UPDATE thread SET subject = ?, latestDate = ?, messageCount = ?, unreadCount = ?, participants = ?,
                              snippet = ?
            WHERE id = ?
            """)
        statement.setUncheckedArguments([
            thread.subject.databaseValue, thread.latestDate.databaseValue, thread.messageCount.databaseValue,
            thread.unreadCount.databaseValue, thread.participants.databaseValue, thread.snippet.databaseValue,
            thread.id.databaseValue,
        ])
        try statement.execute()
    }

    /// Whether a thread of the account is named `name`: every thread there is, kept or
    /// deleted by this rethread (a deleted one's name is free only after it), and the ones
    /// it created.
    static func isNameTaken(_ name: String, accountId: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM thread WHERE accountId = ? AND dirName = ?)"),
                          arguments: [accountId, name]) ?? false
    }

    /// Puts each message in its thread.
    static func move(_ moves: [(emailId: Int64, threadId: Int64)], _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "UPDATE email SET threadId = ? WHERE id = ?")
        for (emailId, threadId) in moves {
            statement.setUncheckedArguments([threadId.databaseValue, emailId.databaseValue])
            try statement.execute()
        }
    }
}
