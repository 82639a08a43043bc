import ArgumentParser
import Foundation

/// `mailfs cache clear [ACCOUNT]`: empties the downloaded-content cache. Safe while
/// mounted: a file opened later is downloaded again.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Manage the cache of downloaded messages and attachments.",
        subcommands: [Clear.self])

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete downloaded content (all accounts, or one).")

        @Argument(help: "Only this account.")
        var account: String?

        @OptionGroup var location: LocationOptions

        func run() throws {
            try location.withStore { store in
                let accounts = try store.accounts().filter { account == nil || $0.name == account }
                if let account, accounts.isEmpty { throw CleanExit.failure("no account named \(account)") }
                for record in accounts {
                    guard let id = record.id else { continue }
                    let freed = try store.clearCache(accountId: id)
                    print("\(record.name): \(freed.formatted(.byteCount(style: .file))) freed")
                }
            }
        }
    }
}
