import Foundation
import GRDB
import MailCore

extension TreeStore {
    /// `cp note.eml FOLDER/`: the message is stored, listed and threaded at once
    /// (placeholder UID), and an APPEND row carries its bytes. Returns the stored file
    /// name. Its statements run for every file copied in, so they are cached like the
    /// ingest's. The copy is linked to a stored message only when it is the same message
    /// (`SameMessage`); in an offline account a folder that already holds these very bytes
    /// is left as it is. A server account's copy is stored with CR LF line ends
    /// (`LineEnds`): the bytes the APPEND sends and the server will send back. An offline
    /// account keeps the file's bytes, as an import does, so copying in a file it imported
    /// finds it again.
    public func recordAppend(_ file: [UInt8], folderId: Int64, flags: MessageFlags,
                             context: WriteContext, now: Date = Date()) throws -> String {
        let raw = context.isOffline ? file : LineEnds.crlf(file)
        var prepared = PreparedMessage(IncomingMessage(raw: raw, folderId: folderId, uid: 0, flags: flags, arrival: now))
        var added: [SearchEntry] = []
        let fileName = try store.writeStoringRaw { db in
            let rule = try SameMessage.rule(accountId: context.accountId, db: db)
            if rule == .identicalBytes,
               let held = try Self.heldCopy(of: prepared, accountId: context.accountId, pack: store.pack, db: db) {
                return held
            }
            var writer = try JournalWriter(db: db, context: context, now: now, deletion: false)
            var row = try writer.insert(.append) { row in
                row.targetFolderId = folderId
                row.raw = Data(raw)
                row.flag = AppendFlags.text(flags)
            }
            guard let changeId = row.id else { throw LocalChangeError.notFound }
            let placeholder = PlaceholderUID.forChange(changeId)
            prepared.incoming.uid = placeholder
            _ = try MailStore.ingest(prepared, accountId: context.accountId, rule: rule, pack: store.pack, indexing: &added, db: db)
            guard let emailId = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT emailId FROM emailFolder WHERE folderId = ? AND imapUID = ?"),
                arguments: [folderId, placeholder]) else {
                throw LocalChangeError.notFound
            }
            try db.cachedStatement(sql: "UPDATE emailFolder SET pending = \(PendingLink.arriving.sql) WHERE folderId = ? AND imapUID = ?")
                .execute(arguments: [folderId, placeholder])
            row.emailId = emailId
            row.placeholderUID = placeholder
            row.messageId = try String.fetchOne(db.cachedStatement(sql: "SELECT messageId FROM email WHERE id = ?"),
                                                arguments: [emailId])
            try writer.save(row, columns: ["emailId", "placeholderUID", "messageId"])
            try writer.finishIfOffline()
            _ = try MailStore.rethread(db, accountId: context.accountId)
            return try String.fetchOne(db.cachedStatement(sql: "SELECT fileName FROM email WHERE id = ?"),
                                       arguments: [emailId]) ?? ""
        }
        store.searchIndex.add(added)
        return fileName
    }

    /// The file name of the stored message with these bytes, when the target folder shows it.
    private static func heldCopy(of message: PreparedMessage, accountId: Int64, pack: MessagePack,
                                 db: Database) throws -> String? {
        guard let emailId = try SameMessage.stored(message, accountId: accountId, rule: .identicalBytes, pack: pack,
                                                   db: db) else {
            return nil
        }
        return try String.fetchOne(db.cachedStatement(sql: """
            SELECT e.fileName FROM email e JOIN emailFolder f ON f.emailId = e.id
            WHERE e.id = ? AND f.folderId = ? AND f.pending IS NULL
            """), arguments: [emailId, message.incoming.folderId])
    }
}
