import Activity
import Config
import FUSE
import Store
import Sync

/// Wires the sync engine to the mount: shared account state for `.status`/`.log`, and
/// `.control` commands.
enum SyncEngine {
    static func start(config: MailfsConfig, store: MailStore, activities: AccountActivities,
                      tree: MailTree) -> SyncCoordinator {
        let coordinator = SyncCoordinator(config: config, store: store, activities: activities)
        tree.onControl { account, command in
            switch command {
            case "sync":
                return coordinator.trigger(account: account)
            case "reset":
                do {
                    try store.resetSyncState(accountName: account)
                } catch {
                    return false
                }
                return coordinator.trigger(account: account)
            default:
                return false
            }
        }
        tree.provideContent(with: coordinator)
        tree.provideSending(with: coordinator)
        tree.provideWriteBack(with: coordinator)
        coordinator.start()
        return coordinator
    }
}
