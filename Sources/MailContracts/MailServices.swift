import Store

/// What the sync engine gives a tree whose mount has configured accounts, all at once at
/// construction: downloads of content the store does not hold, the outbox's checks and
/// senders, the journal's appliers, and the `.control` commands that need a server. A
/// mount of imported accounts only has none (`MailTree(services: nil)`): its content is
/// all in the store, its outbox is read-only and its changes stay local.
public struct MailServices: Sendable {
    public let content: any ContentProvider
    public let sending: any OutboxService
    public let writeBack: any WriteBackService
    /// Runs `command` for the configured account `account`; false when the account does
    /// not know it.
    public let control: @Sendable (_ account: String, _ command: ControlCommand) -> Bool

    public init(content: any ContentProvider, sending: any OutboxService, writeBack: any WriteBackService,
                control: @escaping @Sendable (_ account: String, _ command: ControlCommand) -> Bool) {
        self.content = content
        self.sending = sending
        self.writeBack = writeBack
        self.control = control
    }
}
