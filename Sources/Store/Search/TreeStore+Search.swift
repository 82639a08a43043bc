import Foundation
import GRDB
import MailCore

extension TreeStore {
    /// The messages matching `query`, oldest first, as listings show them: every message of
    /// the scope that is not deleted (the same set `threads/` shows), in one statement over
    /// the listing index. `now` and `calendar` resolve relative dates (`today`, `7d`).
    public func messages(matching query: SearchQuery, in scope: SearchScope, limit: Int? = nil,
                         now: Date = Date(), calendar: Calendar = .current) throws -> [MessageEntry] {
        let condition = SearchCompiler(now: now, calendar: calendar).condition(query)
        var sql = "SELECT \(MessageEntry.columns) FROM \(MessageEntry.email) \(MessageEntry.joins) WHERE e.isDeleted = 0"
        var arguments = StatementArguments()
        if case .account(let id) = scope {
            sql += " AND e.accountId = ?"
            arguments += [id]
        }
        sql += " AND (\(condition.sql)) \(MessageEntry.order)"
        arguments += StatementArguments(condition.arguments)
        if let limit {
            sql += " LIMIT ?"
            arguments += [limit]
        }
        // This process's new mail is in the index before the query reads it.
        store.searchIndex.waitUntilWritten()
        return try store.messagesRead { db, pass in try MessageEntry.fetchAll(db.makeStatement(sql: sql), arguments: arguments, pass: pass) }
    }

    /// What `mailfs search` prints of messages besides their listing entry: Message-ID,
    /// subject, sender, thread and the folders listing them, by email id.
    public func searchDetails(emailIds: [Int64]) throws -> [Int64: SearchDetails] {
        var details: [Int64: SearchDetails] = [:]
        // SQLite's bound-variable limit: ask in slices.
        for slice in emailIds.inSQLSlices {
            let marks = databaseQuestionMarks(count: slice.count)
            try store.pool.read { db in
                for row in try Row.fetchAll(db, sql: """
                    SELECT e.id, e.messageId, e.subject, e.fromName, e.fromAddress, t.dirName
                    FROM email e LEFT JOIN thread t ON t.id = e.threadId WHERE e.id IN (\(marks))
                    """, arguments: StatementArguments(slice)) {
                    details[row["id"]] = SearchDetails(messageId: row["messageId"], subject: row["subject"],
                                                       fromName: row["fromName"], fromAddress: row["fromAddress"],
                                                       thread: row["dirName"])
                }
                for row in try Row.fetchAll(db, sql: """
                    SELECT f.emailId, d.path FROM emailFolder f JOIN folder d ON d.id = f.folderId
                    WHERE f.emailId IN (\(marks)) AND \(MessageEntry.visible) ORDER BY d.path
                    """, arguments: StatementArguments(slice)) {
                    details[row["emailId"]]?.folders.append(row["path"])
                }
            }
        }
        return details
    }
}
