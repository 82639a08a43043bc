/// Where a search looks: one account (`<account>/search/`) or all (`<mount>/search/`).
public enum SearchScope: Sendable, Hashable {
    case account(Int64)
    case everyAccount
}
