import Activity
import Foundation
import Store

/// The accounts the tree shows: every account of the store (configured or imported),
/// each with its live activity (owned by the mount's `AccountActivities`). Accounts
/// imported while mounted appear on the next store change.
final class AccountRegistry: Sendable {
    private let store: TreeStore
    private let activities: AccountActivities

    init(store: TreeStore, activities: AccountActivities) {
        self.store = store
        self.activities = activities
    }

    func all() throws -> [AccountRecord] {
        try store.accounts()
    }

    func record(id: Int64) throws -> AccountRecord? {
        try store.account(id: id)
    }

    func activity(for account: AccountRecord) -> AccountActivity {
        activities.activity(named: account.name, address: account.address)
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
