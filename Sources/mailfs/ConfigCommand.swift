import ArgumentParser
import Config

/// `mailfs config`: checks the config file and says what mailfs will use; its help
/// (`mailfs help config`) is the configuration reference.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the config file and list its accounts; `mailfs help config` is the reference.",
        discussion: ConfigHelp.helpText)

    @OptionGroup var location: LocationOptions

    func run() throws {
        let path = try location.configPath
        guard let config = try location.loadConfig() else {
            print("no config file at \(path): `mailfs mount DIR` mounts the offline demo account")
            return
        }
        print("\(path): valid, \(config.accounts.count) account(s)")
        for account in config.accounts {
            let sending = account.smtp.map { "SMTP \($0)" } ?? "no SMTP (cannot send)"
            print("  \(account.name): \(account.address), IMAP \(account.imap), \(sending)")
        }
        if !config.searches.isEmpty {
            print("  saved searches: \(config.searches.map(\.name).joined(separator: ", "))")
        }
    }
}
