import Foundation
import GRDB
import MailCore

/// One message's row of the full-text index (`SearchIndexFile`): rowid = email.id, a
/// column per field a query can name.
struct SearchEntry: Sendable {
    var emailId: Int64
    var subject: String
    /// From, name and address.
    var sender: String
    /// To, Cc and Bcc.
    var recipients: String
    /// The text: the plain body, or the HTML body's text; at most `maxBodyCharacters`.
    var body: String
    /// File names of the attachments not shown inline, one per line.
    var attachments: String
    /// Every part's type.
    var mimeTypes: String

    /// The full-text index keeps the first megabyte of text of a message: enough for
    /// search, bounded for hostile giants.
    static let maxBodyCharacters = 1 << 20

    /// The columns, in `SearchIndexFile`'s order.
    static let columns = ["subject", "sender", "recipients", "body", "attachments", "mimetypes"]

    static func indexedText(plain: String?, html: String?) -> String {
        let text = plain ?? html.map { HTMLText.plainText(fromHTML: $0) } ?? ""
        // A text of at most that many UTF-8 bytes has at most that many characters: only
        // longer ones are cut (`prefix` walks every character, grapheme breaking included,
        // which showed in a sync's profile when done for every message).
        return text.utf8.count <= maxBodyCharacters ? text : String(text.prefix(maxBodyCharacters))
    }

    /// Adds the row. One the index holds already (a catch-up indexed the message from the
    /// store; another process did) is replaced, or left as it is when not `replacing`.
    func write(_ db: Database, replacing: Bool) throws {
        if !replacing, try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM emailSearch_docsize WHERE id = ?)"),
                                          arguments: [emailId]) == true {
            return
        }
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO emailSearch (rowid, subject, sender, recipients, body, attachments, mimetypes)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [emailId, subject, sender, recipients, body, attachments, mimeTypes])
    }
}

// In an extension, so the memberwise initializer (the catch-up's rows) stays synthesized.
extension SearchEntry {
    /// What a parsed message gives the index. The row's id is set when the message is stored.
    init(_ parsed: ParsedMessage) {
        self.init(emailId: 0, subject: parsed.subject,
                  sender: AddressFormatter.format(parsed.from),
                  recipients: AddressFormatter.format(parsed.to + parsed.cc + parsed.bcc),
                  body: Self.indexedText(plain: parsed.bodyPlain, html: parsed.bodyHTML),
                  attachments: parsed.attachments.filter { !$0.isInline }.compactMap(\.filename).joined(separator: "\n"),
                  mimeTypes: parsed.partTypes.joined(separator: " "))
    }
}
