import Foundation
import GRDB
import MailCore

/// Compiles a search to one SQL condition on `email e`. Values are bound, never spliced:
/// a query is user input. Text terms that sit together in an AND or an OR become one
/// full-text lookup; the rest are conditions on the listing index's columns or `IN`
/// subqueries on small indexed tables, so a search reads no wide message row.
struct SearchCompiler {
    /// Relative dates (`today`, `7d`) are read against this clock.
    let now: Date
    let calendar: Calendar

    struct Condition {
        var sql: String
        var arguments: [(any DatabaseValueConvertible)?] = []
    }

    func condition(_ query: SearchQuery) -> Condition {
        if let expression = FullTextExpression.make(query) { return fullText(expression) }
        switch query {
        case .everything: return Condition(sql: "1")
        case .term(let term): return condition(term)
        case .not(let inner): return wrapped("NOT ", condition(inner))
        case .and(let operands): return combined(operands, with: " AND ")
        case .or(let operands): return combined(operands, with: " OR ")
        }
    }

    /// Operands joined; the text operands among them as one full-text lookup when that can
    /// be said in FTS5 (an AND needs one positive text operand for its NOTs).
    private func combined(_ operands: [SearchQuery], with separator: String) -> Condition {
        let isText = { (operand: SearchQuery) in FullTextExpression.make(operand) != nil || Self.isNegatedText(operand) }
        let text = operands.filter(isText)
        let merged = text.count > 1 ? FullTextExpression.make(separator == " AND " ? .and(text) : .or(text)) : nil
        let parts = merged.map { [fullText($0)] + operands.filter { !isText($0) }.map(condition) } ?? operands.map(condition)
        return Condition(sql: parts.map { "(\($0.sql))" }.joined(separator: separator),
                         arguments: parts.flatMap(\.arguments))
    }

    private static func isNegatedText(_ query: SearchQuery) -> Bool {
        if case .not(let inner) = query { return FullTextExpression.make(inner) != nil }
        return false
    }

    private func condition(_ term: SearchTerm) -> Condition {
        switch term {
        case .text:
            return fullText(FullTextExpression.make(.term(term)) ?? "")
        case .tag(.unread):
            return Condition(sql: "e.isRead = 0")
        case .tag(.flagged):
            return Condition(sql: "e.isStarred = 1")
        case .tag(.attachment):
            return Condition(sql: "e.id IN (SELECT emailId FROM attachment WHERE isInline = 0)")
        case .messageID(let id):
            // Through the (accountId, messageId) index: every account's, then the id.
            return Condition(sql: "e.id IN (SELECT id FROM email WHERE accountId IN (SELECT id FROM account) AND messageId = ?)",
                             arguments: [id])
        case .thread(let name):
            return Condition(sql: "e.threadId IN (SELECT id FROM thread WHERE dirName = ?)", arguments: [name])
        case .folder(let path):
            // A directory name cannot hold "/": `Projects.Budget` names Projects/Budget too.
            return Condition(sql: """
                e.id IN (SELECT f.emailId FROM emailFolder f JOIN folder d ON d.id = f.folderId
                         WHERE f.pending IS NOT \(PendingLink.leaving.sql) AND (d.path = ? COLLATE NOCASE OR replace(d.path, '/', '.') = ? COLLATE NOCASE))
                """, arguments: [path, path])
        case .date(let range):
            return dates(range.resolved(now: now, calendar: calendar))
        }
    }

    /// notmuch's date is the Date header's; a message without one has its arrival.
    private func dates(_ bounds: (lower: Date?, upper: Date?)) -> Condition {
        let date = "COALESCE(e.dateSent, e.dateReceived)"
        var clauses: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let lower = bounds.lower { clauses.append("\(date) >= ?"); arguments.append(lower) }
        if let upper = bounds.upper { clauses.append("\(date) < ?"); arguments.append(upper) }
        return Condition(sql: clauses.isEmpty ? "1" : clauses.joined(separator: " AND "), arguments: arguments)
    }

    private func fullText(_ expression: String) -> Condition {
        Condition(sql: "e.id IN (SELECT rowid FROM search.emailSearch WHERE emailSearch MATCH ?)", arguments: [expression])
    }

    private func wrapped(_ prefix: String, _ inner: Condition) -> Condition {
        Condition(sql: "\(prefix)(\(inner.sql))", arguments: inner.arguments)
    }
}
