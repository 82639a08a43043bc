import ArgumentParser
import Foundation

struct ForgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Delete all local data of an account (remove it from the config first).")

    @Argument(help: "The account to forget.")
    var account: String

    @OptionGroup var location: LocationOptions

    func run() throws {
        if let config = try location.loadConfig(), config.account(named: account) != nil {
            throw CleanExit.failure("\(account) is still in the config: remove it there first")
        }
        try location.withStore { store in
            if let id = try store.account(named: account)?.id { try store.clearCache(accountId: id) }
            guard try store.deleteAccount(named: account) else {
                throw CleanExit.failure("no account named \(account) in the store")
            }
            print("\(account): local data deleted")
            // On a file system without hole punching the pack keeps the deleted mail's space.
            if let problem = store.tree.packSpaceProblem {
                FileHandle.standardError.write(Data("mailfs: warning: \(problem)\n".utf8))
            }
        }
    }
}
