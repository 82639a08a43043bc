/// The store as `mailfs import` (`Import`) uses it: whole mailboxes stored in large
/// batches, with rare checkpoints while they go in and their listings kept after.
public struct ImportStore: IngestingStore {
    public let handle: StoreHandle
}

extension MailStore {
    /// The façade an import is built with.
    public var importer: ImportStore { ImportStore(handle: handle) }
}
