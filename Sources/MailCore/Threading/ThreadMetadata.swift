import Foundation

/// What thread metadata needs to know of one message of the thread.
public struct ThreadMessageSummary: Sendable, Hashable {
    public var id: Int64
    public var date: Date
    /// The From addresses of the message (usually one).
    public var from: [EmailAddress]
    /// The decoded subject as sent.
    public var subject: String
    public var isUnread: Bool
    /// The message's preview (`Snippet.make(plain:html:fallback:)`), as stored with it.
    public var snippet: String

    public init(id: Int64, date: Date, from: [EmailAddress], subject: String, isUnread: Bool, snippet: String) {
        self.id = id
        self.date = date
        self.from = from
        self.subject = subject
        self.isUnread = isUnread
        self.snippet = snippet
    }
}

/// The summary of one conversation (FR-SYNC-06 step 5), shown in thread listings and used
/// for the thread directory's name (root) and mtime (latest date).
///
/// "Earliest" and "latest" order messages by date, then by id, so equal dates still give
/// one answer.
public struct ThreadMetadata: Sendable, Hashable {
    public var rootID: Int64
    /// The subject of the root (earliest) message, as sent.
    public var subject: String
    public var latestDate: Date
    public var messageCount: Int
    public var unreadCount: Int
    /// Distinct From addresses (compared case-insensitively), by first appearance in date
    /// order; each keeps the display name it first appeared with.
    public var participants: [EmailAddress]
    /// The latest message's preview (`Snippet`), or its subject when it has none.
    public var snippet: String

    /// Nil for an empty thread.
    public init?(messages: [ThreadMessageSummary]) {
        let ordered = messages.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
        guard let root = ordered.first, let latest = ordered.last else { return nil }
        rootID = root.id
        subject = root.subject
        latestDate = latest.date
        messageCount = ordered.count
        unreadCount = ordered.count(where: \.isUnread)
        participants = Self.distinctSenders(of: ordered)
        snippet = latest.snippet.isEmpty ? latest.subject : latest.snippet
    }

    private static func distinctSenders(of ordered: [ThreadMessageSummary]) -> [EmailAddress] {
        var seen: Set<String> = []
        var senders: [EmailAddress] = []
        for address in ordered.lazy.flatMap(\.from) {
            let key = address.address.lowercased()
            guard !key.isEmpty, seen.insert(key).inserted else { continue }
            senders.append(address)
        }
        return senders
    }
}
