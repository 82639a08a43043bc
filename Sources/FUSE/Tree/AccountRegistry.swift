import Foundation
import Store
import Synchronization

/// The accounts the tree shows: every account of the store (configured or imported),
/// each with its live activity. Accounts imported while mounted appear on the next
/// store change.
final class AccountRegistry: Sendable {
    private let store: MailStore
    private let profiles: [String: AccountProfile]
    private let activities = Mutex<[String: AccountActivity]>([:])

    init(store: MailStore, profiles: [AccountProfile]) {
        self.store = store
        self.profiles = Dictionary(profiles.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func all() throws -> [AccountRecord] {
        try store.accounts()
    }

    func record(id: Int64) throws -> AccountRecord? {
        try store.accounts().first { $0.id == id }
    }

    func activity(for account: AccountRecord) -> AccountActivity {
        activities.withLock { activities in
            if let existing = activities[account.name] { return existing }
            let profile = profiles[account.name]
                ?? .offline(name: account.name, address: account.address)
            let created = AccountActivity(profile: profile)
            activities[account.name] = created
            return created
        }
    }

    func activity(accountId: Int64) -> AccountActivity? {
        guard let account = try? record(id: accountId) else { return nil }
        return activity(for: account)
    }

    func activity(named name: String) -> AccountActivity? {
        guard let account = try? store.account(named: name) else { return nil }
        return activity(for: account)
    }
}
