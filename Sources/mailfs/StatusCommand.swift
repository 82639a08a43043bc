import Activity
import ArgumentParser
import Foundation
import Store

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print the state of every account (or one), as the mount's .status files show it.",
        discussion: """
            With a mount running, this is its live .status (phase, progress, errors). Without \
            one, it is what the store knows: last sync and the folder table.
            """)

    @Argument(help: "Only this account.")
    var account: String?

    @OptionGroup var location: LocationOptions

    func run() throws {
        if location.dataDir == nil, let live = LiveMount.status(account: account) {
            print(live, terminator: "")
            return
        }
        let config = try location.loadConfig()
        try location.withStore { store in
            let profiles = AccountProfiles.make(config: config)
            var facts: [(name: String, facts: StatusReport.AccountFacts)] = []
            for record in try store.accounts() where account == nil || record.name == account {
                let profile = profiles.first { $0.name == record.name }
                    ?? .offline(name: record.name, address: record.address,
                                deleteGuard: AccountProfiles.importedDeleteGuard(config: config))
                guard var recordFacts = try store.tree.statusFacts(record, activity: AccountActivity.State(), profile: profile)
                else { continue }
                if let id = record.id, account != nil { recordFacts.storage = try store.tree.storageUse(accountId: id) }
                facts.append((record.name, recordFacts))
            }
            if let account, facts.isEmpty { throw CleanExit.failure("no account named \(account)") }
            if let only = facts.first, account != nil {
                print(StatusReport.account(only.facts), terminator: "")
            } else {
                print(StatusReport.root(facts, diskUse: store.tree.totalDiskUse(), spaceProblem: store.tree.packSpaceProblem), terminator: "")
            }
        }
    }
}
