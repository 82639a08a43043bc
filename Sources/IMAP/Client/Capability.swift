/// An IMAP capability mailfs acts on, by its upper-cased name in CAPABILITY responses.
public struct Capability: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    private init(_ name: String) {
        self.name = name
    }

    public var description: String { name }

    public static let authPlain = Capability("AUTH=PLAIN")
    public static let condStore = Capability("CONDSTORE")
    public static let esearch = Capability("ESEARCH")
    public static let idle = Capability("IDLE")
    public static let move = Capability("MOVE")
    public static let namespace = Capability("NAMESPACE")
    public static let saslInitialResponse = Capability("SASL-IR")
    public static let specialUse = Capability("SPECIAL-USE")
    public static let uidPlus = Capability("UIDPLUS")
    /// RFC 3691: leave the selected mailbox without expunging (`MailboxSelection`).
    public static let unselect = Capability("UNSELECT")
}
