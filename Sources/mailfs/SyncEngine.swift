import FUSE
import MailContracts
import Store
import Sync

/// The sync engine's side of the mount: the services the tree is built with.
enum SyncEngine {
    static func services(of coordinator: SyncCoordinator, store: SyncStore) -> MailServices {
        MailServices(content: coordinator, sending: coordinator, writeBack: coordinator) { account, command in
            switch command {
            case .sync:
                return coordinator.trigger(account: account)
            case .reset:
                do {
                    try store.resetSyncState(accountName: account)
                } catch {
                    return false
                }
                return coordinator.trigger(account: account)
            case .confirmDeletes, .cancelDeletes:
                // The tree answers the guard itself.
                return false
            }
        }
    }
}
