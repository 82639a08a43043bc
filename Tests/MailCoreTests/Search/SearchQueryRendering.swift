@testable import MailCore

/// A compact, readable form of a parsed query for tables: `(and from:"alice" (not tag:unread))`.
enum SearchQueryRendering {
    static func render(_ query: SearchQuery) -> String {
        switch query {
        case .everything: "*"
        case .term(let term): render(term)
        case .not(let inner): "(not \(render(inner)))"
        case .and(let operands): "(and " + operands.map(render).joined(separator: " ") + ")"
        case .or(let operands): "(or " + operands.map(render).joined(separator: " ") + ")"
        }
    }

    static func render(_ term: SearchTerm) -> String {
        switch term {
        case .text(let field, let match): "\(field.rawValue):\"\(match.text)\"" + (match.isPrefix ? "*" : "")
        case .messageID(let id): "id:\(id)"
        case .thread(let name): "thread:\(name)"
        case .folder(let path): "folder:\(path)"
        case .tag(let tag): "tag:\(tag.rawValue)"
        case .date(let range): "date:\(range.since.map(render) ?? "")..\(range.until.map(render) ?? "")"
        }
    }

    static func render(_ bound: DateBound) -> String {
        switch bound {
        case .calendar(let year, let month, let day): ([year] + [month, day].compactMap { $0 }).map(String.init).joined(separator: "-")
        case .today: "today"
        case .yesterday: "yesterday"
        case .now: "now"
        case .timestamp(let seconds): "@\(seconds)"
        case .ago(let span): span.counts.sorted { $0.key > $1.key }.map { "\($0.value)\($0.key)" }.joined()
        }
    }
}
