import Foundation
import GRDB
import MailCore

/// What a thread's `conversation.txt` is rendered from: the thread's version and date, its
/// messages' envelopes and attachments, and each message's text, read one at a time.
extension TreeStore {
    /// The threads among `threadIds` that exist, with their versions and latest dates.
    public func conversationStates(threadIds: [Int64]) throws -> [Int64: ConversationState] {
        try store.treeRead { db in
            let statement = try db.cachedStatement(sql: """
                SELECT t.id, t.latestDate, COALESCE(v.version, 0) FROM thread t
                LEFT JOIN \(ConversationVersions.table) v ON v.threadId = t.id
                WHERE t.id IN (\(MailStore.idList))
                """)
            var states: [Int64: ConversationState] = [:]
            let rows = try Row.fetchCursor(statement, arguments: [MailStore.idListArgument(threadIds)])
            while let row = try rows.next() {
                let state = ConversationState(threadId: row[0], latestDate: (row[1] as StoredDate).date, version: row[2])
                states[state.threadId] = state
            }
            return states
        }
    }

    public func conversationState(threadId: Int64) throws -> ConversationState? {
        try conversationStates(threadIds: [threadId])[threadId]
    }

    /// The threads whose conversations changed after `version` (deleted ones too), and the
    /// latest version now, to ask from next time.
    public func conversationChanges(since version: Int64) throws -> ConversationChanges {
        try store.treeRead { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT threadId, version FROM \(ConversationVersions.table) WHERE version > ? ORDER BY version
                """), arguments: [version])
            return ConversationChanges(threadIds: rows.map { $0[0] }, latestVersion: rows.last?[1] ?? version)
        }
    }

    /// The latest conversation version of the store: where a mount starts looking for changes.
    public func latestConversationVersion() throws -> Int64 {
        try store.treeRead { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(version) FROM \(ConversationVersions.table)") ?? 0
        }
    }

    /// A thread's version and messages (not deleted), oldest first, each with its
    /// attachments; nil when the thread is gone. One snapshot, so the version is the one
    /// of these messages.
    public func conversation(threadId: Int64) throws -> StoredConversation? {
        try store.treeRead { db in
            guard let state = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT t.latestDate, COALESCE(v.version, 0) FROM thread t
                LEFT JOIN \(ConversationVersions.table) v ON v.threadId = t.id WHERE t.id = ?
                """), arguments: [threadId]) else { return nil }
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT id, fileName, isRead, subject, fromName, fromAddress, toAddresses, ccAddresses, dateSent
                FROM email WHERE threadId = ? AND isDeleted = 0 ORDER BY COALESCE(dateSent, dateReceived), id
                """), arguments: [threadId])
            let attachments = try conversationAttachments(ofThread: threadId, db)
            return StoredConversation(
                state: ConversationState(threadId: threadId, latestDate: (state[0] as StoredDate).date, version: state[1]),
                messages: rows.map { row in
                    let id: Int64 = row[0]
                    return ConversationMember(row: row, attachments: attachments[id] ?? [])
                })
        }
    }

    private func conversationAttachments(ofThread threadId: Int64, _ db: Database) throws -> [Int64: [ConversationAttachment]] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT a.emailId, a.fileName, a.mimeType, a.sizeBytes FROM email e JOIN attachment a ON a.emailId = e.id
            WHERE e.threadId = ? AND e.isDeleted = 0 ORDER BY a.emailId, a.id
            """), arguments: [threadId])
        var byEmail: [Int64: [ConversationAttachment]] = [:]
        while let row = try rows.next() {
            byEmail[row[0], default: []].append(ConversationAttachment(fileName: row[1], mimeType: row[2], sizeBytes: row[3]))
        }
        return byEmail
    }

    /// A message's text as the store holds it: its raw bytes, else the texts kept for a
    /// message stored without them, else nothing (`.notStored`).
    public func conversationText(emailId: Int64) throws -> StoredMessageText {
        if let raw = try rawMessage(emailId: emailId) { return .raw(raw) }
        return try store.treeRead { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT bodyPlain, bodyHTML FROM email WHERE id = ?"),
                                             arguments: [emailId]) else { return .notStored }
            let plain: String? = row[0]
            let html: String? = row[1]
            return plain == nil && html == nil ? .notStored : .texts(plain: plain, html: html)
        }
    }
}

/// A thread's conversation version (`ConversationVersions`) and latest date (the mtime of
/// its `conversation.txt`).
public struct ConversationState: Sendable, Equatable {
    public var threadId: Int64
    public var latestDate: Date
    public var version: Int64
}

/// `TreeStore.conversationChanges(since:)`.
public struct ConversationChanges: Sendable, Equatable {
    public var threadIds: [Int64]
    public var latestVersion: Int64
}

public struct StoredConversation: Sendable {
    public var state: ConversationState
    public var messages: [ConversationMember]
}

/// One message of a conversation: what its heading shows, from its row.
public struct ConversationMember: Sendable, Equatable {
    public var id: Int64
    public var fileName: String
    public var isRead: Bool
    public var subject: String
    public var from: [EmailAddress]
    public var to: [EmailAddress]
    public var cc: [EmailAddress]
    /// The Date header's; nil when the message has none.
    public var dateSent: Date?
    public var attachments: [ConversationAttachment]

    init(row: Row, attachments: [ConversationAttachment]) {
        id = row[0]
        fileName = row[1]
        isRead = row[2]
        subject = row[3]
        let fromName: String = row[4]
        let fromAddress: String = row[5]
        from = fromAddress.isEmpty && fromName.isEmpty ? [] : [EmailAddress(name: fromName.isEmpty ? nil : fromName,
                                                                             address: fromAddress)]
        // Stored as `AddressFormatter` wrote them.
        to = AddressParser.parseList(row[6])
        cc = AddressParser.parseList(row[7])
        dateSent = (row[8] as StoredDate?)?.date
        self.attachments = attachments
    }
}

public struct ConversationAttachment: Sendable, Equatable {
    /// The name attachments/<message>/ shows.
    public var fileName: String
    public var mimeType: String
    public var sizeBytes: Int64
}

/// `TreeStore.conversationText(emailId:)`.
public enum StoredMessageText: Sendable, Equatable {
    case raw([UInt8])
    case texts(plain: String?, html: String?)
    case notStored
}
