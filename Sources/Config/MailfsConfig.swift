import Foundation
import TOMLKit

/// The whole configuration file (docs/REQUIREMENTS.md §C7), validated: `[defaults]`, the
/// accounts and the saved searches.
///
///     let config = try MailfsConfig.load(path: paths.configFile)
///     for account in config.accounts { … account.settings.syncWindowDays … }
public struct MailfsConfig: Sendable, Equatable {
    /// `[defaults]` over the built-in values; each account's `settings` starts from these.
    public var defaults: AccountSettings
    /// Every `[accounts.NAME]`, ordered by name. May be empty.
    public var accounts: [AccountConfig]
    /// `[searches]`, ordered by name: listed in `<mount>/search/` and every account's `search/`.
    public var searches: [SavedSearch]

    public init(defaults: AccountSettings = AccountSettings(), accounts: [AccountConfig] = [],
                searches: [SavedSearch] = []) {
        self.defaults = defaults
        self.accounts = accounts
        self.searches = searches
    }

    public func account(named name: String) -> AccountConfig? {
        accounts.first { $0.name == name }
    }

    /// Reads and validates the file at `path`; errors name `path` as given.
    public static func load(
        path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigError) -> MailfsConfig {
        try parse(text: ConfigSource.readText(path: path), path: path, environment: environment)
    }

    /// Validates `text` as if read from `path` (which errors name, and `ca_file` is relative to).
    /// `environment` supplies `HOME` for a `ca_file` starting with `~/`.
    public static func parse(
        text: String, path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigError) -> MailfsConfig {
        let lines = KeyLineIndex(text: text)
        let document = try ConfigSource.parseTOML(text, lines: lines, path: path)
        let context = ParseContext(file: path, lines: lines)
        let root = TableReader(table: document, key: ConfigKey(), context: context)
        try root.rejectUnknownKeys(allowed: ["defaults", "accounts", "searches"])
        var defaults = AccountSettings()
        if let table = try root.table("defaults") {
            try table.rejectUnknownKeys(allowed: AccountSettings.keyNames)
            defaults = try defaults.overridden(by: table)
        }
        var accounts: [AccountConfig] = []
        if let accountsTable = try root.table("accounts") {
            for name in accountsTable.table.keys.sorted() {
                guard let table = try accountsTable.table(name) else { continue }
                accounts.append(try AccountParser.parse(name: name, table, defaults: defaults, home: environment["HOME"]))
            }
        }
        return MailfsConfig(defaults: defaults, accounts: accounts, searches: try SearchesParser.parse(root.table("searches")))
    }
}
