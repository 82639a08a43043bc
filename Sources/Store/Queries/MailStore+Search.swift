import GRDB

extension MailStore {
    /// Ids of the account's messages whose subject, addresses or text contain every word
    /// of `text` (FTS5, prefix-free, best match first). Words are quoted, so user text
    /// can never be read as FTS5 query syntax.
    public func search(_ text: String, accountId: Int64, limit: Int = 1000) throws -> [Int64] {
        let words = text.split(whereSeparator: { $0.isWhitespace }).map { word in
            "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        guard !words.isEmpty else { return [] }
        return try pool.read { db in
            try Int64.fetchAll(db, sql: """
                SELECT s.rowid FROM emailSearch s JOIN email e ON e.id = s.rowid
                WHERE emailSearch MATCH ? AND e.accountId = ? ORDER BY rank LIMIT ?
                """, arguments: [words.joined(separator: " "), accountId, limit])
        }
    }
}
