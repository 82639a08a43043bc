import Foundation
import GRDB
import MailCore

/// The columns of a message that grouping reads (FR-SYNC-06 steps 1–4), streamed by a
/// cursor into `ThreadGrouping`: no row outlives its turn, so grouping an account holds
/// its Message-IDs and subject keys but not its messages.
enum ThreadingRow {
    /// What `input` and `threadId` read, in their order.
    static let columns = #"id, messageId, inReplyTo, "references", subject, dateSent, dateReceived, threadId"#

    /// The account's threads, as `ThreadGrouper.group` orders them, and the thread each
    /// message is in now; the messages without a thread go to `unthreaded` too.
    static func groups(_ db: Database, accountId: Int64,
                       unthreaded: (ThreadingInput) -> Void) throws -> (groups: [[Int64]], current: CurrentThreads) {
        var grouping = ThreadGrouping()
        var current = CurrentThreads()
        let rows = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM email WHERE accountId = ?",
                                       arguments: [accountId])
        while let row = try rows.next() {
            let message = input(row)
            grouping.add(message)
            if let thread = threadId(row) {
                current.add(message: message.id, thread: thread)
            } else {
                unthreaded(message)
            }
        }
        return (grouping.groups(), current)
    }

    /// The account's messages that have no thread yet. Cached: every `rm` and `mv` in an
    /// imported account rethreads in its transaction, and preparing it cost more than running it.
    static func unthreaded(_ db: Database, accountId: Int64) throws -> [ThreadingInput] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT \(columns) FROM email WHERE threadId IS NULL AND +accountId = ?"),
                         arguments: [accountId]).map(input)
    }

    /// The messages of these threads, with the thread each is in.
    static func members(_ db: Database, threads: Set<Int64>) throws -> [(input: ThreadingInput, threadId: Int64)] {
        var members: [(input: ThreadingInput, threadId: Int64)] = []
        for slice in Array(threads).sorted().inSQLSlices {
            let rows = try Row.fetchCursor(db, sql: """
                SELECT \(columns) FROM email WHERE threadId IN (\(databaseQuestionMarks(count: slice.count)))
                """, arguments: StatementArguments(slice))
            while let row = try rows.next() {
                members.append((input(row), threadId(row) ?? 0))
            }
        }
        return members
    }

    /// By position, in the order of `columns`: looking columns up by name was half the
    /// time of reading every message of the account.
    static func input(_ row: Row) -> ThreadingInput {
        let dateSent = (row[5] as StoredDate?)?.date
        let dateReceived = (row[6] as StoredDate).date
        // Parent ids are stored space-separated.
        let inReplyTo: String = row[2]
        let references: String = row[3]
        return ThreadingInput(id: row[0], messageID: row[1],
                              inReplyTo: inReplyTo.split(separator: " ").map(String.init),
                              references: references.split(separator: " ").map(String.init),
                              subject: row[4], date: dateSent ?? dateReceived)
    }

    private static func threadId(_ row: Row) -> Int64? { row[7] }
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
