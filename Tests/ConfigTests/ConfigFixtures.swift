import Foundation
@testable import Config

/// Shared fixtures: the example configuration of the product contract
/// (docs/REQUIREMENTS.md §C7) and helpers to parse text as `config.toml`.
enum ConfigFixtures {
    /// The contract's example configuration verbatim (its keys are listed in
    /// docs/REQUIREMENTS.md §C7), with `ca_file` pointing at `caFile`.
    static func designExample(caFile: String) -> String {
        """
        [defaults]                       # all optional
        sync_window_days = 30            # 7 | 14 | 30 | 60 | 90
        cache_limit_mb = 500
        raw_store_max_kb = 256
        undo_seconds = 5
        delete_guard = 100

        [accounts.work]
        address = "me@example.com"
        username = "me@example.com"      # default: address
        auth = "plain"                   # plain | xoauth2
        password_command = "pass show mail/work"      # auth = plain
        # token_command = "oauth2-token me@gmail.com" # auth = xoauth2
        provider = "generic"             # gmail | generic; default guessed from the IMAP host
        ca_file = "\(caFile)"   # optional extra trust root
        aliases = ["me@alias.example"]   # other allowed From addresses
        # any [defaults] key may be set per account too

        [accounts.work.imap]
        host = "imap.example.com"
        port = 993
        security = "tls"                 # tls | starttls

        [accounts.work.smtp]
        host = "smtp.example.com"
        port = 465
        security = "tls"
        """
    }

    /// The smallest valid account, for tests that add one key to it.
    static let minimalAccount = """
        [accounts.work]
        address = "me@example.com"
        password_command = "pass show mail/work"

        [accounts.work.imap]
        host = "imap.example.com"
        """

    static func parse(_ text: String, environment: [String: String] = [:]) throws(ConfigError) -> MailfsConfig {
        try MailfsConfig.parse(text: text, path: "config.toml", environment: environment)
    }

    /// The error `text` is refused with, or nil when it parses.
    static func error(_ text: String) -> ConfigError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    /// A new readable file in a fresh temporary directory.
    static func temporaryFile(named name: String, contents: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mailfs-config-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try contents.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
