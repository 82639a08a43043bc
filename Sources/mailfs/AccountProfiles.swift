import Config
import Store

/// What `.status` shows of configured accounts, derived from the config (no secrets).
enum AccountProfiles {
    static func make(config: MailfsConfig?) -> [AccountProfile] {
        (config?.accounts ?? []).map { account in
            AccountProfile(name: account.name, address: account.address,
                           provider: account.provider.rawValue, auth: account.auth.rawValue,
                           imap: account.imap.description,
                           smtp: account.smtp?.description ?? "none",
                           cacheLimitBytes: Int64(account.settings.cacheLimitBytes),
                           deleteGuard: account.settings.deleteGuard)
        }
    }
}
