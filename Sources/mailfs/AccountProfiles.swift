import Activity
import Config
import Store
import Sync

/// What `.status` shows of configured accounts, derived from the config (no secrets).
enum AccountProfiles {
    static func make(config: MailfsConfig?) -> [AccountProfile] {
        (config?.accounts ?? []).map(AccountProfile.init)
    }

    /// The guard of accounts the config does not name (imported ones): its `[defaults]`.
    static func importedDeleteGuard(config: MailfsConfig?) -> Int {
        (config?.defaults ?? AccountSettings()).deleteGuard
    }
}
