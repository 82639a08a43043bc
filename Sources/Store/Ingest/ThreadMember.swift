import Foundation
import GRDB
import MailCore

/// The columns of a message that thread metadata (FR-SYNC-06 step 5) and the choice of
/// the surviving thread read; fetched by id for one chunk of groups at a time.
struct ThreadMember: FetchableRecord {
    var id: Int64
    var threadId: Int64?
    var subject: String
    var dateSent: Date?
    var dateReceived: Date
    var isRead: Bool
    var fromAddress: String
    var fromName: String
    var snippet: String

    /// By position, in the order of `fetch`'s SELECT (faster than by name, as in
    /// `ThreadingRow`).
    init(row: Row) {
        id = row[0]
        threadId = row[1]
        subject = row[2]
        dateSent = (row[3] as StoredDate?)?.date
        dateReceived = (row[4] as StoredDate).date
        isRead = row[5]
        fromAddress = row[6]
        fromName = row[7]
        snippet = row[8]
    }

    /// The messages of these ids, by id.
    static func fetch(_ db: Database, ids: [Int64]) throws -> [Int64: ThreadMember] {
        var members: [Int64: ThreadMember] = [:]
        members.reserveCapacity(ids.count)
        for slice in ids.inSQLSlices {
            let found = try ThreadMember.fetchAll(db, sql: """
                SELECT id, threadId, subject, dateSent, dateReceived, isRead, fromAddress, fromName, snippet
                FROM email WHERE id IN (\(databaseQuestionMarks(count: slice.count)))
                """, arguments: StatementArguments(slice))
            for member in found { members[member.id] = member }
        }
        return members
    }

    var date: Date { dateSent ?? dateReceived }
}
