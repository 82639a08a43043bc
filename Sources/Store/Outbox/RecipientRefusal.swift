/// A recipient the SMTP server refused in a send attempt, with its reply.
public struct RecipientRefusal: Sendable, Equatable, CustomStringConvertible {
    public var address: String
    /// The server's reply as it should be shown (`550 5.1.1 <x@example.org>: User unknown`).
    public var reply: String
    /// A 4xx: a later attempt may reach the recipient.
    public var isTransient: Bool

    public init(address: String, reply: String, isTransient: Bool) {
        self.address = address
        self.reply = reply
        self.isTransient = isTransient
    }

    public var description: String { "\(address): \(reply)" }

    /// The first few, then how many more: a message to 1,500 recipients still gets a
    /// reason `.log`, `.status` and `user.mailfs.error` can show.
    static func list(_ refusals: [RecipientRefusal]) -> String {
        list(refusals.map(\.description))
    }

    static func list(_ items: [String], shown: Int = 3) -> String {
        let head = items.prefix(shown).joined(separator: "; ")
        return items.count > shown ? "\(head) and \(items.count - shown) more" : head
    }
}
