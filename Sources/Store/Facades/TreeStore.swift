/// The store as the mounted tree (`FUSE`) uses it: listings, names and attributes, raw
/// bytes and cached content, search, storage figures, drafts in outbox/, and the changes
/// users make, each a journal row committed with its local effect. `mailfs status`,
/// `search` and the mount's banner read through it too, as the tree shows the same facts.
public struct TreeStore: SendQueueStore {
    public let handle: StoreHandle
}

extension MailStore {
    /// The façade the tree is built with.
    public var tree: TreeStore { TreeStore(handle: handle) }
}
