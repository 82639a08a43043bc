/// One `[accounts.NAME]` table, validated and with every default applied.
public struct AccountConfig: Sendable, Equatable {
    /// The table key; also the account's directory at the mount root (see `AccountName`).
    public var name: String
    /// The account's own address: the default From, and allowed as From.
    public var address: String
    /// The IMAP/SMTP login name (defaults to `address`).
    public var username: String
    /// The command that yields the secret; its kind matches `auth`.
    public var credential: CredentialSource
    public var provider: Provider
    /// An extra trust root (absolute path, checked readable at load), added to the system roots.
    public var caFile: String?
    /// Other addresses allowed as From in outbox messages.
    public var aliases: [String]
    /// Effective tunables: this account's overrides over `[defaults]`.
    public var settings: AccountSettings
    public var imap: ServerEndpoint
    /// Absent when the account has no `[accounts.NAME.smtp]`: it syncs but cannot send.
    public var smtp: ServerEndpoint?
    /// `[accounts.NAME.searches]`, ordered by name: listed in this account's `search/` only.
    public var searches: [SavedSearch]

    public init(
        name: String, address: String, username: String, credential: CredentialSource,
        provider: Provider, caFile: String? = nil, aliases: [String] = [],
        settings: AccountSettings = AccountSettings(), imap: ServerEndpoint, smtp: ServerEndpoint? = nil,
        searches: [SavedSearch] = []
    ) {
        self.name = name
        self.address = address
        self.username = username
        self.credential = credential
        self.provider = provider
        self.caFile = caFile
        self.aliases = aliases
        self.settings = settings
        self.imap = imap
        self.smtp = smtp
        self.searches = searches
    }

    /// `auth` as configured; always the method `credential` serves.
    public var auth: AuthMethod { credential.authMethod }

    /// Whether outbox/ can deliver for this account.
    public var canSend: Bool { smtp != nil }
}
