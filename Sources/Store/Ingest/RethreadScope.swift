import Foundation
import GRDB
import MailCore

/// The part of an account a rethread regroups when only some messages changed: the
/// messages without a thread, the stale threads (one of their messages was deleted), and
/// every thread one of the new messages links to (`ThreadLinkKeys`), with all of their
/// messages.
///
/// Grouping only these messages gives the groups a whole-account pass gives them: the
/// threads before the change were the connected components of the messages then, so a
/// message outside the scope links to nothing inside it (a new message's links are all
/// looked up, and a stale thread's remaining messages link only among themselves and to
/// new messages). Candidates that a key collision or a subject key adds are whole
/// threads too, which grouping leaves as they are. docs/DECISIONS.md, "Rethreading only
/// the threads a change reaches".
struct RethreadScope {
    /// Up to this many new messages are always regrouped by scope…
    static let fewMessages = 1_000
    /// …and more only while they are at most this share of the account's messages.
    static let largestShare = 0.25

    /// The messages to group.
    private(set) var messages: [ThreadingInput]
    /// The thread each of `messages` is in, and how many messages each thread holds.
    private(set) var current = CurrentThreads()
    /// The threads whose messages `messages` holds.
    private(set) var threads: Set<Int64>

    init(_ db: Database, accountId: Int64, unthreaded: [ThreadingInput]) throws {
        var threads = try Self.staleThreads(db, accountId: accountId)
        threads.formUnion(try Self.threadsLinked(to: unthreaded, accountId: accountId, db))
        messages = unthreaded
        for member in try ThreadingRow.members(db, threads: threads) {
            messages.append(member.input)
            current.add(message: member.input.id, thread: member.threadId)
        }
        self.threads = threads
    }

    var groups: [[Int64]] { ThreadGrouper.group(messages) }

    private static func staleThreads(_ db: Database, accountId: Int64) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM thread WHERE accountId = ? AND isStale"),
                               arguments: [accountId]))
    }

    /// The threads of the stored messages that share an id node with one of `messages`,
    /// or a subject key within the window.
    private static func threadsLinked(to messages: [ThreadingInput], accountId: Int64,
                                      _ db: Database) throws -> Set<Int64> {
        let probes = messages.map { (message: $0, probe: ThreadLinkKeys.probe(for: $0)) }
        var threads = Set<Int64>()
        // CROSS JOIN keeps SQLite on the keys first: the store has no statistics, and
        // without them it walked the account's messages and probed each one's keys.
        let ids = Array(Set(probes.flatMap(\.probe.ids))).sorted()
        for slice in ids.inSQLSlices {
            threads.formUnion(try Int64.fetchAll(db, sql: """
                SELECT DISTINCT e.threadId FROM threadLink l CROSS JOIN email e ON e.id = l.emailId
                WHERE l.key IN (\(databaseQuestionMarks(count: slice.count))) AND e.accountId = ? AND e.threadId IS NOT NULL
                """, arguments: StatementArguments(slice + [accountId])))
        }
        for (message, probe) in probes where !probe.subjects.isEmpty {
            threads.formUnion(try threadsSharingSubject(probe.subjects, near: message.date, accountId: accountId, db))
        }
        return threads
    }

    /// The threads of the stored messages holding one of `keys` (one or two) whose date
    /// is within the subject window of `date`.
    private static func threadsSharingSubject(_ keys: [Int64], near date: Date, accountId: Int64,
                                              _ db: Database) throws -> Set<Int64> {
        let statement = try db.cachedStatement(sql: """
            SELECT e.threadId, e.dateSent, e.dateReceived FROM threadLink l CROSS JOIN email e ON e.id = l.emailId
            WHERE l.key IN (?, ?) AND e.accountId = ? AND e.threadId IS NOT NULL
            """)
        let time = ThreadLinkKeys.subjectTime(date)
        var threads = Set<Int64>()
        let rows = try Row.fetchCursor(statement, arguments: [keys[0], keys.last ?? keys[0], accountId])
        while let row = try rows.next() {
            let stored = (row[1] as StoredDate?)?.date ?? (row[2] as StoredDate).date
            // A second of slack: a candidate too many is harmless, one missed is not.
            if abs(ThreadLinkKeys.subjectTime(stored) - time) <= ThreadLinkKeys.subjectWindow + 1 {
                threads.insert(row[0])
            }
        }
        return threads
    }
}
