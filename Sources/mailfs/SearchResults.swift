import Foundation
import Store

/// What `mailfs search` prints of its results: paths in the mount, Message-IDs, or JSON.
struct SearchResults {
    let messages: [MessageEntry]
    let details: [Int64: SearchDetails]
    let accountNames: [Int64: String]
    /// The mount point paths start with; nil: relative to the mount root.
    let root: String?

    /// One line per folder listing a message; `archive/` for a message in none.
    func paths() -> String {
        messages.flatMap(paths(of:)).map { $0 + "\n" }.joined()
    }

    /// `id:MESSAGE-ID` per message that has one, as notmuch prints them.
    func messageIDs() -> String {
        messages.compactMap { details[$0.id]?.messageId }.map { "id:\($0)\n" }.joined()
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(messages.map(record)), as: UTF8.self) + "\n"
    }

    private func paths(of message: MessageEntry) -> [String] {
        let account = accountNames[message.accountId] ?? "account"
        let folders = details[message.id]?.folders ?? []
        return (folders.isEmpty ? ["archive"] : folders).map { folder in
            [root, account, folder, message.fileName].compactMap { $0 }.joined(separator: "/")
        }
    }

    private struct Record: Encodable {
        var account: String
        var file: String
        var paths: [String]
        var messageId: String?
        var subject: String
        var from: String
        var thread: String?
        var date: Date
        var unread: Bool
        var flagged: Bool
    }

    private func record(_ message: MessageEntry) -> Record {
        let detail = details[message.id]
        let from = [detail?.fromName, detail?.fromAddress.isEmpty == false ? "<\(detail?.fromAddress ?? "")>" : nil]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return Record(account: accountNames[message.accountId] ?? "account", file: message.fileName,
                      paths: paths(of: message), messageId: detail?.messageId, subject: detail?.subject ?? "",
                      from: from, thread: detail?.thread, date: message.date, unread: !message.isRead, flagged: message.isStarred)
    }
}
