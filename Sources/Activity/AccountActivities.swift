import Config
import Foundation
import Synchronization

/// The live state of every account of a mount, one `AccountActivity` per account name,
/// made on first use. The mount command creates it and hands it to the sync engine (which
/// records what happens on the servers) and to the tree (which renders `.status`/`.log`
/// and records what users do); neither creates activities of its own
/// (docs/ARCHITECTURE.md, "Who owns which state").
public final class AccountActivities: Sendable {
    private let profiles: [String: AccountProfile]
    private let importedDeleteGuard: Int
    private let activities = Mutex<[String: AccountActivity]>([:])

    /// `profiles`: the configured accounts; any other account (imported) is offline, with
    /// `importedDeleteGuard` (the config's `[defaults]` `delete_guard`).
    public init(profiles: [AccountProfile], importedDeleteGuard: Int = AccountSettings().deleteGuard) {
        self.profiles = Dictionary(profiles.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.importedDeleteGuard = importedDeleteGuard
    }

    /// The activity of the account `name` (`address` is for an account with no profile).
    public func activity(named name: String, address: String) -> AccountActivity {
        activities.withLock { activities in
            if let existing = activities[name] { return existing }
            let created = AccountActivity(profile: profiles[name]
                                          ?? .offline(name: name, address: address, deleteGuard: importedDeleteGuard))
            activities[name] = created
            return created
        }
    }
}
