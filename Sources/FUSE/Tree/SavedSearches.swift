import Config

/// The saved searches of the config: `[searches]` in every `search/`, an account's own
/// `[accounts.NAME.searches]` in its `search/` (taking precedence over a shared one of the
/// same name).
public struct SavedSearches: Sendable, Equatable {
    public var shared: [SavedSearch]
    public var byAccount: [String: [SavedSearch]]

    public init(shared: [SavedSearch] = [], byAccount: [String: [SavedSearch]] = [:]) {
        self.shared = shared
        self.byAccount = byAccount
    }

    /// What `search/` of `account` lists (nil: the mount root's), by name.
    func list(forAccount account: String?) -> [SavedSearch] {
        let own = account.flatMap { byAccount[$0] } ?? []
        let ownNames = Set(own.map(\.name))
        return (own + shared.filter { !ownNames.contains($0.name) }).sorted { $0.name < $1.name }
    }
}

/// A saved search's node id: the account id (0 for the mount root's `search/`) above
/// 16 bits of its index in `SavedSearches.list`. The config is fixed while mounted, so the
/// index names the same search as long as the mount lives.
enum SavedSearchID {
    static func make(accountId: Int64?, index: Int) -> Int64 {
        ((accountId ?? 0) << 16) | Int64(index & 0xFFFF)
    }

    static func split(_ id: Int64) -> (accountId: Int64?, index: Int) {
        let account = id >> 16
        return (account == 0 ? nil : account, Int(id & 0xFFFF))
    }
}
