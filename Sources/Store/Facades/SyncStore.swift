/// The store as the sync engine (`Sync`) uses it: each folder's sync state and the
/// messages it links or removes, ingest of fetched messages, downloads into the content
/// cache, the journal's rows as the appliers take and settle them, and the send queue as
/// the senders work it.
public struct SyncStore: IngestingStore, SendQueueStore {
    public let handle: StoreHandle
}

extension MailStore {
    /// The façade the sync engine is built with.
    public var sync: SyncStore { SyncStore(handle: handle) }
}
