/// What the tree asks of the journal's appliers (the sync engine): a wake-up when an
/// account's journal changed. nil in a mount of offline accounts only.
public protocol WriteBackService: Sendable {
    func journalChanged(accountId: Int64)
}
