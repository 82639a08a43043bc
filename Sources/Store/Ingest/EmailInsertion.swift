import Foundation
import GRDB

/// A new message's `email` row with its values already encoded, for the store's writer to
/// bind to one prepared statement.
///
/// GRDB's record `insert` encodes the row through Codable and formats its dates with a
/// shared `DateFormatter`, on the thread that inserts. In an import or a sync that thread
/// is the store's writer, the critical path (docs/DECISIONS.md, "Import: reading ahead,
/// statement journals in memory, page size"), so the encoding happens here instead, where
/// the message is parsed. The values are the ones GRDB would write (`Date.databaseValue`
/// is the format its records use); a store test checks a row inserted here reads back
/// equal to the record it came from.
struct EmailInsertion: Sendable {
    /// Every column of `EmailRecord` but `id` (SQLite numbers it) and the two the writer
    /// decides: `accountId` and `fileName`.
    static let columns = [
        "threadId", "fingerprint", "messageId", "inReplyTo", "references",
        "fromAddress", "fromName", "toAddresses", "ccAddresses", "bccAddresses",
        "subject", "dateSent", "dateReceived",
        "isRead", "isStarred", "isDraft", "isAnswered", "isDeleted",
        "sizeBytes", "bodyPlain", "bodyHTML", "snippet", "hasAttachments",
    ]

    private let values: [DatabaseValue]

    init(_ row: EmailRecord) {
        values = [
            row.threadId.databaseValue, row.fingerprint.databaseValue, row.messageId.databaseValue,
            row.inReplyTo.databaseValue, row.references.databaseValue,
            row.fromAddress.databaseValue, row.fromName.databaseValue, row.toAddresses.databaseValue,
            row.ccAddresses.databaseValue, row.bccAddresses.databaseValue,
            row.subject.databaseValue, row.dateSent.databaseValue, row.dateReceived.databaseValue,
            row.isRead.databaseValue, row.isStarred.databaseValue, row.isDraft.databaseValue,
            row.isAnswered.databaseValue, row.isDeleted.databaseValue,
            row.sizeBytes.databaseValue, row.bodyPlain.databaseValue, row.bodyHTML.databaseValue,
            row.snippet.databaseValue, row.hasAttachments.databaseValue,
        ]
    }

    /// Inserts the row into `accountId` under `fileName`; returns the new message's id.
    func insert(accountId: Int64, fileName: String, db: Database) throws -> Int64 {
        let statement = try db.cachedStatement(sql: Self.sql)
        statement.setUncheckedArguments(StatementArguments([accountId.databaseValue, fileName.databaseValue] + values))
        try statement.execute()
        return db.lastInsertedRowID
    }

    private static let sql: String = {
        let names = (["accountId", "fileName"] + columns).map { "\"\($0)\"" }
        let marks = Array(repeating: "?", count: names.count)
        return "INSERT INTO email (\(names.joined(separator: ", "))) VALUES (\(marks.joined(separator: ", ")))"
    }()
}
