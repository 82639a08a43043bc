import Foundation
import GRDB
import MailCore

extension MailStore {
    static func ingest(_ messages: [PreparedMessage], accountId: Int64, pack: MessagePack,
                       indexing added: inout [SearchEntry], db: Database) throws -> IngestSummary {
        let rule = try SameMessage.rule(accountId: accountId, db: db)
        var summary = IngestSummary()
        for message in messages {
            summary += try ingest(message, accountId: accountId, rule: rule, pack: pack, indexing: &added, db: db)
        }
        return summary
    }

    /// Every statement here runs once per message or more: they are prepared once per
    /// connection (`cachedStatement`), which took the parser and GRDB's authorizer (and the
    /// triggers' compilation) out of a tenth of an import's CPU time.
    ///
    /// A new message's full-text row goes to `added`, for the caller to hand to
    /// `searchIndex` once the transaction has committed (never inside it: the index's
    /// writer may be waiting for the store's). Its raw bytes go to `pack`: the transaction
    /// must be a `writeStoringRaw` one.
    static func ingest(_ message: PreparedMessage, accountId: Int64, rule: SameMessage.Rule, pack: MessagePack,
                       indexing added: inout [SearchEntry], db: Database) throws -> IngestSummary {
        var summary = IngestSummary()
        let folderId = message.incoming.folderId
        let uid = message.incoming.uid
        // A UID names one message: the folder holds this one already.
        if try Int64.fetchOne(db.cachedStatement(sql: "SELECT emailId FROM emailFolder WHERE folderId = ? AND imapUID = ?"),
                              arguments: [folderId, uid]) != nil {
            summary.alreadyPresent = 1
            return summary
        }
        if let emailId = try SameMessage.stored(message, accountId: accountId, rule: rule, pack: pack, db: db) {
            let linked = try associateUnlessHeld(emailId: emailId, folderId: folderId, uid: uid, db: db)
            if linked { summary.linked = 1 } else { summary.alreadyPresent = 1 }
            return summary
        }
        let fileName = try uniqueFileName(message.baseFileName, accountId: accountId, db: db)
        let emailId = try message.row.insert(accountId: accountId, fileName: fileName, db: db)
        _ = try associate(emailId: emailId, folderId: folderId, uid: uid, db: db)
        if let raw = message.raw {
            try PackedContent.store(raw, emailId: emailId, pack: pack, db: db)
        }
        try insertAttachments(message.parsed.attachments, emailId: emailId,
                              downloaded: message.raw != nil, db: db)
        var entry = message.searchEntry
        entry.emailId = emailId
        added.append(entry)
        summary.added = 1
        return summary
    }

    /// Links a known message to the folder, unless the folder already shows it (the same
    /// bytes imported twice): its association keeps its UID then.
    private static func associateUnlessHeld(emailId: Int64, folderId: Int64, uid: Int64, db: Database) throws -> Bool {
        let held = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT imapUID FROM emailFolder WHERE emailId = ? AND folderId = ? AND imapUID > 0
            """), arguments: [emailId, folderId])
        if held != nil { return false }
        return try associate(emailId: emailId, folderId: folderId, uid: uid, db: db)
    }

    /// Puts the message in the folder under `uid`. A known association only gets its UID
    /// renumbered (UIDVALIDITY re-sync); whatever held that UID before is replaced, since
    /// the server says the UID is this message now. Returns whether an association was added.
    static func associate(emailId: Int64, folderId: Int64, uid: Int64, db: Database) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM emailFolder WHERE folderId = ? AND imapUID = ? AND emailId <> ?")
            .execute(arguments: [folderId, uid, emailId])
        if let existing = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT imapUID FROM emailFolder WHERE emailId = ? AND folderId = ?
            """), arguments: [emailId, folderId]) {
            if existing != uid {
                // A journal arrival gets its server UID here when the server sent none.
                try db.cachedStatement(sql: """
                    UPDATE emailFolder SET imapUID = ?, pending = CASE WHEN pending = \(PendingLink.arriving.sql) THEN NULL ELSE pending END
                    WHERE emailId = ? AND folderId = ?
                    """).execute(arguments: [uid, emailId, folderId])
            }
            return false
        }
        try db.cachedStatement(sql: "INSERT INTO emailFolder (emailId, folderId, imapUID) VALUES (?, ?, ?)")
            .execute(arguments: [emailId, folderId, uid])
        return true
    }

    private static func uniqueFileName(_ base: String, accountId: Int64, db: Database) throws -> String {
        let taken = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM email WHERE accountId = ? AND fileName = ?)")
        return try FileNamer.firstFree(base) { candidate in
            try Bool.fetchOne(taken, arguments: [accountId, candidate]) ?? false
        }
    }

    /// A new message's attachments, never downloaded apart (no cache path, no access
    /// time): a statement of its own rather than `AttachmentRecord.insert`, for the reason
    /// `EmailInsertion` gives.
    private static func insertAttachments(_ attachments: [AttachmentInfo], emailId: Int64,
                                          downloaded: Bool, db: Database) throws {
        var taken = Set<String>()
        let statement = try db.cachedStatement(sql: """
            INSERT INTO attachment (emailId, partId, fileName, mimeType, sizeBytes, encoding, isInline, contentId,
                                    isDownloaded, sizeIsExact)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for info in attachments {
            let base = FileNamer.sanitize(info.filename ?? AttachmentNaming.fallbackName(for: info))
            let name = FileNamer.firstFree(base) { taken.contains($0) }
            taken.insert(name)
            try statement.execute(arguments: [
                emailId, info.partID, name, info.mimeType, Int64(info.size), info.encoding, info.isInline,
                info.contentID, downloaded, downloaded,
            ])
        }
    }
}

/// Messages parsed and turned into rows by `IngestingStore.prepare`, ready to store.
public struct PreparedBatch: Sendable {
    let messages: [PreparedMessage]

    public var count: Int { messages.count }
}

/// Names for attachments that carry no file name of their own.
enum AttachmentNaming {
    static func fallbackName(for info: AttachmentInfo) -> String {
        let subtype = info.mimeType.split(separator: "/").last.map(String.init) ?? "bin"
        let ext = knownExtensions[info.mimeType] ?? subtype
        return "part \(info.partID).\(ext)"
    }

    private static let knownExtensions: [String: String] = [
        "message/rfc822": "eml", "text/plain": "txt", "text/html": "html",
        "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif",
        "application/pdf": "pdf", "text/calendar": "ics", "application/octet-stream": "bin",
    ]
}
