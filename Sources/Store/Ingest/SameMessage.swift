import Foundation
import GRDB
import MailCore

/// Which stored message an incoming one is, if any. Messages are the same only when they
/// are the same message, never because they share a Message-ID (a torture test and a
/// fragment of it, a list post delivered twice, an edited resend all may):
///
/// - `identicalBytes` (offline accounts: `mailfs import`, files copied into their folders):
///   the same bytes, in whatever folder. A second copy of the same bytes in one mailbox is
///   the same message again: nothing tells the two apart, and a re-import adds nothing.
/// - `serverCopy` (IMAP accounts): each UID of a folder is a message of its own; a message
///   in another folder is the same one when it has a Message-ID and the same fingerprint
///   (RFC822.SIZE and header bytes), as a COPY or a Gmail label gives. Messages without a
///   Message-ID are never merged.
///
/// docs/SYNC-RULES.md, "The same message", gives the rules users see.
enum SameMessage {
    enum Rule: Sendable {
        case identicalBytes
        case serverCopy
    }

    /// Offline accounts have no server to say which messages are copies of one another.
    static func rule(accountId: Int64, db: Database) throws -> Rule {
        let offline = try Bool.fetchOne(db, sql: "SELECT isOffline FROM account WHERE id = ?", arguments: [accountId])
        return offline ?? true ? .identicalBytes : .serverCopy
    }

    /// The stored message that `message` is, by `rule`.
    static func stored(_ message: PreparedMessage, accountId: Int64, rule: Rule, pack: MessagePack,
                       db: Database) throws -> Int64? {
        switch rule {
        case .identicalBytes:
            guard let raw = message.raw else { return nil }
            return try storedCopy(of: raw, fingerprint: message.fingerprint, accountId: accountId, pack: pack, db: db)
        case .serverCopy:
            return try serverCopy(fingerprint: message.fingerprint, messageId: message.parsed.messageID,
                                  accountId: accountId, folderId: message.incoming.folderId, db: db)
        }
    }

    /// The stored message that holds exactly `raw`.
    static func storedCopy(of raw: [UInt8], fingerprint: MessageFingerprint, accountId: Int64,
                           pack: MessagePack, db: Database) throws -> Int64? {
        let candidates = try Int64.fetchAll(db.cachedStatement(sql: """
            SELECT id FROM email WHERE accountId = ? AND fingerprint = ? ORDER BY id
            """), arguments: [accountId, fingerprint.stored])
        return try candidates.first { id in try PackedContent.raw(emailId: id, pack: pack, db: db) == raw }
    }

    /// The stored message that a server message new to `folderId` is another copy of: one
    /// with its fingerprint that `folderId` does not already hold under a server UID. A
    /// message whose association there is stale (UIDVALIDITY reset) or a journal
    /// placeholder comes first: it is that very message coming back.
    ///
    /// Rows stored before fingerprints existed carry none when their bytes were never
    /// stored whole (large messages): they match by Message-ID and size, and take the
    /// fingerprint then, so they are matched exactly from then on.
    static func serverCopy(fingerprint: MessageFingerprint, messageId: String?, accountId: Int64,
                           folderId: Int64, db: Database) throws -> Int64? {
        guard let found = try findServerCopy(fingerprint: fingerprint, messageId: messageId, accountId: accountId,
                                             folderId: folderId, db: db) else { return nil }
        if found.lacksFingerprint {
            try db.execute(sql: "UPDATE email SET fingerprint = ? WHERE id = ?", arguments: [fingerprint.stored, found.id])
        }
        return found.id
    }

    /// `serverCopy` without a write: the message found, and whether it still lacks the
    /// fingerprint it would take.
    static func findServerCopy(fingerprint: MessageFingerprint, messageId: String?, accountId: Int64,
                               folderId: Int64, db: Database) throws -> (id: Int64, lacksFingerprint: Bool)? {
        guard let messageId, !messageId.isEmpty else { return nil }
        let notHeld = """
            AND NOT EXISTS (SELECT 1 FROM emailFolder f WHERE f.emailId = e.id AND f.folderId = ? AND f.imapUID > 0)
            ORDER BY EXISTS (SELECT 1 FROM emailFolder f WHERE f.emailId = e.id AND f.folderId = ?) DESC, e.id LIMIT 1
            """
        if let id = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT e.id FROM email e WHERE e.accountId = ? AND e.fingerprint = ? AND e.messageId = ? \(notHeld)
            """), arguments: [accountId, fingerprint.stored, messageId, folderId, folderId]) {
            return (id, false)
        }
        return try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT e.id FROM email e WHERE e.accountId = ? AND e.fingerprint IS NULL AND e.messageId = ?
              AND e.sizeBytes = ? \(notHeld)
            """), arguments: [accountId, messageId, fingerprint.size, folderId, folderId]).map { ($0, true) }
    }
}
