import Foundation
import GRDB
import MailCore

/// The columns of a message that grouping reads (FR-SYNC-06 steps 1–4), streamed by a
/// cursor into `ThreadGrouping`: no row outlives its turn, so grouping an account holds
/// its Message-IDs and subject keys but not its messages.
enum ThreadingRow {
    /// The account's threads, as `ThreadGrouper.group` orders them.
    static func groups(_ db: Database, accountId: Int64) throws -> [[Int64]] {
        var grouping = ThreadGrouping()
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, messageId, inReplyTo, "references", subject, dateSent, dateReceived
            FROM email WHERE accountId = ?
            """, arguments: [accountId])
        while let row = try rows.next() {
            grouping.add(input(row))
        }
        return grouping.groups()
    }

    /// By position, in the order of the SELECT: looking columns up by name was half the
    /// time of reading every message of the account.
    private static func input(_ row: Row) -> ThreadingInput {
        let inReplyTo: String = row[2]
        let references: String = row[3]
        let dateSent = (row[5] as StoredDate?)?.date
        let dateReceived = (row[6] as StoredDate).date
        return ThreadingInput(id: row[0], messageID: row[1],
                              inReplyTo: inReplyTo.split(separator: " ").map(String.init),
                              references: references.split(separator: " ").map(String.init),
                              subject: row[4], date: dateSent ?? dateReceived)
    }
}
