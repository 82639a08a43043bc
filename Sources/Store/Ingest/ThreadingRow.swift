import Foundation
import GRDB
import MailCore

/// The columns of a message that grouping reads (FR-SYNC-06 steps 1–4), streamed by a
/// cursor into `ThreadGrouping`: no row outlives its turn, so grouping an account holds
/// its Message-IDs and subject keys but not its messages.
enum ThreadingRow {
    /// The account's threads, as `ThreadGrouper.group` orders them, and the thread each
    /// message is in now.
    static func groups(_ db: Database, accountId: Int64) throws -> (groups: [[Int64]], current: CurrentThreads) {
        var grouping = ThreadGrouping()
        var current = CurrentThreads()
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, messageId, inReplyTo, "references", subject, dateSent, dateReceived, threadId
            FROM email WHERE accountId = ?
            """, arguments: [accountId])
        while let row = try rows.next() {
            grouping.add(input(row))
            current.add(message: row[0], thread: row[7])
        }
        return (grouping.groups(), current)
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

/// The thread each message of the account is in before a rethread, and how many messages
/// each thread holds: what tells a group that is already its thread (`thread(holdingExactly:)`).
struct CurrentThreads {
    private var threadOfMessage: [Int64: Int64] = [:]
    private var messagesInThread: [Int64: Int] = [:]

    mutating func add(message: Int64, thread: Int64?) {
        guard let thread else { return }
        threadOfMessage[message] = thread
        messagesInThread[thread, default: 0] += 1
    }

    /// The thread that holds exactly the messages of `group` and no other message, if any.
    func thread(holdingExactly group: [Int64]) -> Int64? {
        guard let first = group.first, let thread = threadOfMessage[first],
              messagesInThread[thread] == group.count else { return nil }
        return group.allSatisfy { threadOfMessage[$0] == thread } ? thread : nil
    }
}
