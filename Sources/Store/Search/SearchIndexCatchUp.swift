import Foundation
import GRDB
import MailCore

/// How the full-text index differs from the store, read on a store connection that has the
/// index attached (`SearchIndexFile.schema`). FTS5's `emailSearch_docsize` has one row per
/// indexed message in a plain rowid table: counted and joined without reading any text.
struct SearchIndexGaps {
    /// Messages the index lacks.
    var missing: [Int64] = []
    /// Index rows whose message is gone.
    var stale: [Int64] = []

    init(_ db: Database) throws {
        // Count and sum of ids alike: the same rows, but for a coincidence no crash makes.
        let row = try Row.fetchOne(db, sql: """
            SELECT (SELECT count(*) FROM email) AS messages, (SELECT total(id) FROM email) AS sum,
                   (SELECT max(id) FROM email) AS last,
                   (SELECT count(*) FROM search.emailSearch_docsize) AS indexed,
                   (SELECT total(id) FROM search.emailSearch_docsize) AS indexedSum
            """)
        guard let row else { return }
        let last: Int64 = row["last"] ?? 0
        if (row["messages"] as Int64? ?? 0) == (row["indexed"] as Int64? ?? 0),
           (row["sum"] as Double? ?? 0) == (row["indexedSum"] as Double? ?? 0) {
            return
        }
        missing = try Int64.fetchAll(db, sql: """
            SELECT id FROM email e WHERE NOT EXISTS (SELECT 1 FROM search.emailSearch_docsize d WHERE d.id = e.id)
            ORDER BY id
            """)
        // Only below the store's last id: a row above it belongs to a message committed after
        // this read began (ids only grow, and rows are indexed after their commit).
        stale = try Int64.fetchAll(db, sql: """
            SELECT id FROM search.emailSearch_docsize d
            WHERE d.id <= ? AND NOT EXISTS (SELECT 1 FROM email e WHERE e.id = d.id)
            """, arguments: [last])
    }
}

/// Index rows made again from what the store keeps of messages: a message whose bytes are
/// stored is parsed again, so its row is the one its import made; a message synced without
/// its bytes gets its texts as stored, its first sender, its attachments' names as listed,
/// and the types of its texts and attachments (its other parts' types are not stored).
enum StoredSearchEntries {
    static func entries(emailIds: ArraySlice<Int64>, pack: MessagePack, db: Database) throws -> [SearchEntry] {
        let marks = databaseQuestionMarks(count: emailIds.count)
        let arguments = StatementArguments(Array(emailIds))
        var attachments: [Int64: [(name: String, type: String, inline: Bool)]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT emailId, fileName, mimeType, isInline FROM attachment WHERE emailId IN (\(marks)) ORDER BY id
            """, arguments: arguments) {
            attachments[row["emailId"], default: []].append((row["fileName"], row["mimeType"], row["isInline"]))
        }
        var entries: [SearchEntry] = []
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, subject, fromName, fromAddress, toAddresses, ccAddresses, bccAddresses, bodyPlain, bodyHTML
            FROM email WHERE id IN (\(marks))
            """, arguments: arguments)
        while let row = try rows.next() {
            let id: Int64 = row["id"]
            // One message's bytes in memory at a time.
            if let raw = try PackedContent.raw(emailId: id, pack: pack, db: db) {
                var entry = SearchEntry(MessageParser.parse(raw))
                entry.emailId = id
                entries.append(entry)
            } else {
                entries.append(entry(row, id: id, attachments: attachments[id] ?? []))
            }
        }
        return entries
    }

    private static func entry(_ row: Row, id: Int64, attachments: [(name: String, type: String, inline: Bool)]) -> SearchEntry {
        let plain: String? = row["bodyPlain"]
        let html: String? = row["bodyHTML"]
        let name: String = row["fromName"] ?? ""
        let address: String = row["fromAddress"] ?? ""
        let recipients = [row["toAddresses"], row["ccAddresses"], row["bccAddresses"]]
            .compactMap { $0 as String? }.filter { !$0.isEmpty }
        let types = (plain == nil ? [] : ["text/plain"]) + (html == nil ? [] : ["text/html"]) + attachments.map(\.type)
        return SearchEntry(
            emailId: id, subject: row["subject"] ?? "",
            sender: name.isEmpty ? address : "\(name) <\(address)>",
            recipients: recipients.joined(separator: ", "),
            body: SearchEntry.indexedText(plain: plain, html: html),
            attachments: attachments.filter { !$0.inline }.map(\.name).joined(separator: "\n"),
            mimeTypes: types.joined(separator: " "))
    }
}
