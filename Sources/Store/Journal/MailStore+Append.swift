import Foundation
import GRDB
import MailCore

extension MailStore {
    /// `cp note.eml FOLDER/`: the message is stored and listed at once (placeholder UID),
    /// and an APPEND row carries its bytes. Returns the stored file name.
    public func recordAppend(_ raw: [UInt8], folderId: Int64, flags: MessageFlags,
                             context: WriteContext, now: Date = Date()) throws -> String {
        try pool.write { db in
            var writer = try JournalWriter(db: db, context: context, now: now, deletion: false)
            var row = try writer.insert(.append) { row in
                row.targetFolderId = folderId
                row.raw = Data(raw)
                row.flag = AppendFlags.text(flags)
            }
            guard let changeId = row.id else { throw LocalChangeError.notFound }
            let placeholder = PlaceholderUID.forChange(changeId)
            let incoming = IncomingMessage(raw: raw, folderId: folderId, uid: placeholder, flags: flags, arrival: now)
            _ = try Self.ingest(PreparedMessage(incoming), accountId: context.accountId, db: db)
            guard let emailId = try Int64.fetchOne(db, sql: "SELECT emailId FROM emailFolder WHERE folderId = ? AND imapUID = ?",
                                                   arguments: [folderId, placeholder]) else {
                throw LocalChangeError.notFound
            }
            try db.execute(sql: "UPDATE emailFolder SET pending = 'arriving' WHERE folderId = ? AND imapUID = ?",
                           arguments: [folderId, placeholder])
            row.emailId = emailId
            row.placeholderUID = placeholder
            row.messageId = try String.fetchOne(db, sql: "SELECT messageId FROM email WHERE id = ?", arguments: [emailId])
            try writer.save(row, columns: ["emailId", "placeholderUID", "messageId"])
            try writer.finishIfOffline()
            return try String.fetchOne(db, sql: "SELECT fileName FROM email WHERE id = ?", arguments: [emailId]) ?? ""
        }
    }
}

/// The IMAP flags an APPEND carries, stored in the row's `flag` column.
public enum AppendFlags {
    static func text(_ flags: MessageFlags) -> String {
        var names: [String] = []
        if flags.seen { names.append("\\Seen") }
        if flags.flagged { names.append("\\Flagged") }
        if flags.draft { names.append("\\Draft") }
        if flags.answered { names.append("\\Answered") }
        return names.joined(separator: " ")
    }

    public static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: " ").map(String.init)
    }
}
