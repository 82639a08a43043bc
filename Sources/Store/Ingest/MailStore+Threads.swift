import Foundation
import GRDB
import MailCore

extension MailStore {
    /// Recomputes the conversation threads of an account (FR-SYNC-06) after messages
    /// were added or removed. Existing threads keep their id and directory name: when
    /// threads merge, the oldest survives; a new thread is named after its root message.
    /// Returns the ids of threads created, changed or deleted.
    @discardableResult
    public func rethread(accountId: Int64) throws -> Set<Int64> {
        try pool.write { db in
            let members = try ThreadMember.fetchAll(db, accountId: accountId)
            let byId = Dictionary(uniqueKeysWithValues: members.map { ($0.id, $0) })
            let groups = ThreadGrouper.group(members.map(\.threadingInput))
            var existing = try ThreadRecord.filter(Column("accountId") == accountId).fetchAll(db)
                .reduce(into: [Int64: ThreadRecord]()) { $0[$1.id ?? 0] = $1 }
            var takenNames = Set(existing.values.map(\.dirName))
            var claimed = Set<Int64>()
            var touched = Set<Int64>()
            for group in groups {
                let messages = group.compactMap { byId[$0] }
                guard let summary = ThreadMetadata(messages: messages.map(\.summary)),
                      let root = byId[summary.rootID] else { continue }
                let threadId: Int64
                // The oldest thread of the group not taken by another group yet (a filter of
                // the group's few ids: `Set.subtracting(claimed)` walked all claimed ids, per
                // group, which made rethreading quadratic in the account's threads).
                if let keep = messages.lazy.compactMap(\.threadId).filter({ !claimed.contains($0) }).min(),
                   var thread = existing[keep] {
                    threadId = keep
                    if summary.apply(to: &thread) {
                        try thread.update(db)
                        touched.insert(threadId)
                    }
                } else {
                    var thread = summary.newThread(accountId: accountId, rootDate: root.date,
                                                   takenNames: takenNames)
                    try thread.insert(db)
                    threadId = thread.id ?? 0
                    takenNames.insert(thread.dirName)
                    existing[threadId] = thread
                    touched.insert(threadId)
                }
                claimed.insert(threadId)
                let moved = messages.filter { $0.threadId != threadId }.map(\.id)
                if !moved.isEmpty {
                    try EmailRecord.filter(keys: moved).updateAll(db, Column("threadId").set(to: threadId))
                    touched.insert(threadId)
                    touched.formUnion(messages.compactMap(\.threadId))
                }
            }
            let orphans = Set(existing.keys).subtracting(claimed)
            if !orphans.isEmpty {
                try ThreadRecord.deleteAll(db, keys: orphans)
                touched.formUnion(orphans)
            }
            return touched
        }
    }
}

/// The columns of a message that threading and thread metadata read.
struct ThreadMember: FetchableRecord {
    var id: Int64
    var threadId: Int64?
    var messageId: String?
    var inReplyTo: String
    var references: String
    var subject: String
    var dateSent: Date?
    var dateReceived: Date
    var isRead: Bool
    var fromAddress: String
    var fromName: String
    var snippet: String

    /// By position, in the order of `fetchAll`'s SELECT: a rethread reads every message of
    /// the account, and looking columns up by name (as `Decodable` does) was half its time.
    init(row: Row) {
        id = row[0]
        threadId = row[1]
        messageId = row[2]
        inReplyTo = row[3]
        references = row[4]
        subject = row[5]
        dateSent = row[6]
        dateReceived = row[7]
        isRead = row[8]
        fromAddress = row[9]
        fromName = row[10]
        snippet = row[11]
    }

    static func fetchAll(_ db: Database, accountId: Int64) throws -> [ThreadMember] {
        try ThreadMember.fetchAll(db, sql: """
            SELECT id, threadId, messageId, inReplyTo, "references", subject, dateSent,
                   dateReceived, isRead, fromAddress, fromName, snippet
            FROM email WHERE accountId = ?
            """, arguments: [accountId])
    }

    var date: Date { dateSent ?? dateReceived }

    var threadingInput: ThreadingInput {
        ThreadingInput(id: id, messageID: messageId,
                       inReplyTo: inReplyTo.split(separator: " ").map(String.init),
                       references: references.split(separator: " ").map(String.init),
                       subject: subject, date: date)
    }
}
