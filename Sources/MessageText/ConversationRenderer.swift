import MailCore

/// A thread as one text file, `threads/<thread>/conversation.txt`: a head, then every
/// message oldest first.
///
///     Thread: Budget 2027
///     Participants: Alice Smith <alice@example.com>, Bob <bob@example.com>
///     Messages: 2, 1 unread
///     First: 2026-11-02 14:32 UTC
///     Latest: 2026-11-03 09:10 UTC
///
///     === 1/2  2026-11-02 14:32 UTC  Alice Smith <alice@example.com>
///     To: bob@example.com
///     File: 2026-11-02 1432 Alice Smith - Budget 2027.eml
///
///     The draft is attached.
///
///     === 2/2  2026-11-03 09:10 UTC  Bob <bob@example.com>  (unread)
///     …
///
/// The layout leaves two places for later: a summary of the thread goes between the head
/// and the first message, suggested replies after the last one.
public enum ConversationRenderer {
    /// The most text a conversation renders: past it, the messages left are listed with
    /// their headings and a line naming their files instead of their texts.
    public static let maxTextBytes = 64 * 1024 * 1024

    public static func render(_ messages: [ConversationMessage]) -> String {
        render(messages) { messages[$0].body }
    }

    /// The same, with each message's body read only when its turn comes: `body(i)` gives
    /// the body of `messages[i]`, whose own `body` is not read. A caller reading bodies from
    /// a store then holds one at a time, never a long thread's all at once.
    public static func render(_ messages: [ConversationMessage], body: (Int) -> MessageBody) -> String {
        let ordered = oldestFirst(messages)
        let heads = ordered.map(\.element)
        var text = head(heads)
        for (position, (index, message)) in ordered.enumerated() {
            text += "\n" + separator(message, position: position + 1, of: ordered.count)
            text += HeadingLines.lines([("Subject", differingSubject(message, in: heads)),
                                        ("To", HeadingLines.addresses(message.heading.to)),
                                        ("Cc", HeadingLines.addresses(message.heading.cc))])
            text += HeadingLines.fileAndAttachments(message) + "\n"
            guard text.utf8.count < maxTextBytes else {
                text += leftOut(message)
                continue
            }
            var withBody = message
            withBody.body = body(index)
            text += MessageRenderer.text(of: withBody)
        }
        return text
    }

    /// The line in place of a text past `maxTextBytes`.
    static func leftOut(_ message: ConversationMessage) -> String {
        let file = message.fileName.map { "read \"\(ReadableText.oneLine($0))\"" } ?? "read its .eml file"
        return "[text left out: the conversation is over \(maxTextBytes / 1024 / 1024) MB; \(file)]\n"
    }

    /// By date; undated messages after the dated ones, each group in the order given; with
    /// each message's place in `messages`.
    static func oldestFirst(_ messages: [ConversationMessage]) -> [(offset: Int, element: ConversationMessage)] {
        messages.enumerated().sorted { left, right in
            switch (left.element.heading.date, right.element.heading.date) {
            case let (leftDate?, rightDate?) where leftDate != rightDate: leftDate < rightDate
            case (.some, nil): true
            case (nil, .some): false
            default: left.offset < right.offset
            }
        }.map { (offset: $0.offset, element: $0.element) }
    }

    static func head(_ ordered: [ConversationMessage]) -> String {
        let unread = ordered.filter(\.isUnread).count
        let dates = ordered.compactMap(\.heading.date)
        return HeadingLines.lines([
            ("Thread", subject(of: ordered)),
            ("Participants", HeadingLines.addresses(participants(ordered))),
            ("Messages", "\(ordered.count), \(unread) unread"),
            ("First", dates.min().map(HeadingLines.date) ?? ""),
            ("Latest", dates.max().map(HeadingLines.date) ?? ""),
        ])
    }

    /// The first message's subject (the first that has one).
    static func subject(of ordered: [ConversationMessage]) -> String {
        ordered.first { !$0.heading.subject.isEmpty }?.heading.subject ?? ""
    }

    /// Everyone who wrote or was written to, each address once (its first name given), in
    /// order of appearance.
    static func participants(_ ordered: [ConversationMessage]) -> [EmailAddress] {
        var seen: [String: Int] = [:]
        var result: [EmailAddress] = []
        for message in ordered {
            for address in message.heading.from + message.heading.to + message.heading.cc {
                let key = address.address.lowercased()
                if let index = seen[key] {
                    if result[index].name?.isEmpty ?? true { result[index].name = address.name }
                } else {
                    seen[key] = result.count
                    result.append(address)
                }
            }
        }
        return result
    }

    /// `=== 2/5  2026-11-21 10:00 UTC  Alice <alice@example.com>  (unread)`.
    static func separator(_ message: ConversationMessage, position: Int, of count: Int) -> String {
        let sender = HeadingLines.addresses(message.heading.from)
        var line = "=== \(position)/\(count)  \(HeadingLines.date(message.heading.date))  "
            + (sender.isEmpty ? "(no sender)" : sender)
        if message.isUnread { line += "  (unread)" }
        return line + "\n"
    }

    /// A message's subject when it is not the thread's, a reply prefix aside.
    static func differingSubject(_ message: ConversationMessage, in ordered: [ConversationMessage]) -> String {
        let own = message.heading.subject
        return SubjectNormalizer.normalize(own) == SubjectNormalizer.normalize(subject(of: ordered)) ? "" : own
    }
}
