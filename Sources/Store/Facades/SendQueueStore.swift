/// The send queue as both sides of a mount use it, written once: the tree (`TreeStore`)
/// shows its rows as outbox/ files and steps them on `rm` and `touch`; the sync
/// (`SyncStore`) claims, sends and files them. Every step goes through `SendStateMachine`.
public protocol SendQueueStore: StoreReader {}
