/// The tunables of `[defaults]`, each of which an account may override in its own table.
///
/// `MailfsConfig.defaults` holds the `[defaults]` table over the built-in values below;
/// `AccountConfig.settings` holds the effective values for one account
/// (account override ?? `[defaults]` ?? built-in).
public struct AccountSettings: Sendable, Equatable {
    /// Days of mail synced per folder (UID SEARCH SINCE): 7, 14, 30, 60 or 90.
    public var syncWindowDays = 30
    /// Size above which downloaded content is evicted, least recently used first, per account.
    public var cacheLimitMB = 500
    /// Messages up to this size have their raw bytes stored at sync; larger ones are fetched on read.
    public var rawStoreMaxKB = 256
    /// Seconds a new outbox message waits before transmission, so `rm` can still cancel it (0: none).
    public var undoSeconds = 5
    /// More deletions than this within a minute on one account are held for confirmation.
    public var deleteGuard = 100
    /// IMAP connections open at once for the account (docs/REQUIREMENTS.md §C6; at most 30
    /// in all accounts).
    public var maxConnections = 5
    /// Seconds before a connection attempt counts as failed (FR-SYNC-09).
    public var connectTimeoutSeconds = 30
    /// First retry delay of FR-SYNC-09's 5 s / 15 s / 45 s: each later one is three times
    /// the previous. Tests set 0; users rarely need to touch it.
    public var retryDelaySeconds = 5
    /// First retry delay of a failed send (FR-SYNC-07's 30 s / 2 min / 8 min: each later one
    /// is four times the previous). Tests set it low.
    public var sendRetryDelaySeconds = 30
    /// Seconds between periodic syncs of every folder (docs/REQUIREMENTS.md §C6: 5 minutes).
    public var pollIntervalSeconds = 300
    /// `trash_folder`: the server folder rm moves messages to, by its path as the tree shows
    /// it without a role ("Deleted Items", "Projects/Bin"); it beats a `\Trash` attribute.
    /// Nil: the `\Trash` folder, else one with a well-known Trash name.
    public var trashFolder: String?
    /// `delete_without_trash`: when no Trash folder is found, rm deletes for good instead
    /// of being refused.
    public var deleteWithoutTrash = false

    public init() {}

    public var cacheLimitBytes: Int { cacheLimitMB * 1024 * 1024 }
    public var rawStoreMaxBytes: Int { rawStoreMaxKB * 1024 }
}

extension AccountSettings {
    /// Every settings key, its field and its rule. Adding a setting is a field above and a line here:
    /// the parser, the unknown-key check and the per-account overrides all read this table.
    static let keys: [SettingKey] = [
        SettingKey("sync_window_days", \.syncWindowDays, .oneOf([7, 14, 30, 60, 90])),
        SettingKey("connect_timeout_seconds", \.connectTimeoutSeconds, .range(1...300)),
        SettingKey("retry_delay_seconds", \.retryDelaySeconds, .range(0...3600)),
        SettingKey("poll_interval_seconds", \.pollIntervalSeconds, .range(1...86_400)),
        SettingKey("cache_limit_mb", \.cacheLimitMB, .range(1...1_048_576)),
        SettingKey("raw_store_max_kb", \.rawStoreMaxKB, .range(0...1_048_576)),
        SettingKey("undo_seconds", \.undoSeconds, .oneOf([0, 5, 10, 15, 30])),
        SettingKey("delete_guard", \.deleteGuard, .range(0...1_000_000)),
        SettingKey("max_connections", \.maxConnections, .range(1...30)),
        SettingKey("send_retry_delay_seconds", \.sendRetryDelaySeconds, .range(0...3600)),
    ]

    static var keyNames: [String] { keys.map(\.name) + ["trash_folder", "delete_without_trash"] }

    /// These settings with every settings key present in `table` applied over them.
    func overridden(by table: TableReader) throws(ConfigError) -> AccountSettings {
        var result = self
        for setting in Self.keys {
            if let value = try table.integer(setting.name, setting.rule) {
                result[keyPath: setting.field] = value
            }
        }
        if let name = try table.string("trash_folder", expected: "a folder path such as \"Deleted Items\"",
                                       isValid: Self.isFolderPath) {
            result.trashFolder = name
        }
        if let deletes = try table.bool("delete_without_trash") { result.deleteWithoutTrash = deletes }
        return result
    }

    /// A tree path: "/"-separated names, none empty, "." or "..", no control characters.
    static func isFolderPath(_ text: String) -> Bool {
        text.utf8.count <= 1000 && ValueRules.hasNoControlCharacters(text)
            && text.split(separator: "/", omittingEmptySubsequences: false)
                .allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }
}

/// One row of `AccountSettings.keys`.
struct SettingKey: Sendable {
    let name: String
    let field: WritableKeyPath<AccountSettings, Int> & Sendable
    let rule: IntegerRule

    init(_ name: String, _ field: WritableKeyPath<AccountSettings, Int> & Sendable, _ rule: IntegerRule) {
        self.name = name
        self.field = field
        self.rule = rule
    }
}

/// The integers a key accepts, and how to say so in an error.
enum IntegerRule: Sendable {
    case range(ClosedRange<Int>)
    case oneOf([Int])

    func allows(_ value: Int) -> Bool {
        switch self {
        case .range(let range): range.contains(value)
        case .oneOf(let values): values.contains(value)
        }
    }

    /// Completes "expected …": `an integer 1-65535`, `one of 7, 14, 30, 60, 90`.
    var expectation: String {
        switch self {
        case .range(let range): "an integer \(range.lowerBound)-\(range.upperBound)"
        case .oneOf(let values): "one of " + values.map(String.init).joined(separator: ", ")
        }
    }
}
