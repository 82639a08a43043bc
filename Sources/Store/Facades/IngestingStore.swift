/// What both ways mail enters the store share, written once: `mailfs import`
/// (`ImportStore`) and the sync (`SyncStore`) make accounts and folders when missing,
/// parse messages off the writer, settle threads and flush the full-text index.
public protocol IngestingStore: StoreReader {}
