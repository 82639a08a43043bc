/// What every user of the store reads, written once: accounts and folders, content already
/// on disk, and what the store's failures mean. `MailStore` conforms, for the commands that
/// hold it, and so does each façade: `TreeStore`, `SyncStore`, `ImportStore`.
public protocol StoreReader: Sendable {
    /// The store behind the façade.
    var handle: StoreHandle { get }
}

/// The `MailStore` behind a façade, opaque outside `Store`: a façade's user reaches only what
/// its façade shows, and cannot build another façade from it.
public struct StoreHandle: Sendable {
    let store: MailStore
}

extension StoreReader {
    /// The one database every façade works on (docs/DECISIONS.md, "The store split by its
    /// users": one writer, one pool, and transactions that span concerns).
    var store: MailStore { handle.store }
}

extension MailStore: StoreReader {
    public var handle: StoreHandle { StoreHandle(store: self) }
}
