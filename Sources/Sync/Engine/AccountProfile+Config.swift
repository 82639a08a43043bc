import Activity
import Config
import Store

extension AccountProfile {
    /// What `.status` shows of a configured account (no secrets).
    public init(_ account: AccountConfig) {
        self.init(name: account.name, address: account.address,
                  provider: account.provider == .gmail ? .gmail : .generic,
                  auth: account.auth == .xoauth2 ? .xoauth2 : .plain,
                  imap: account.imap.description, smtp: account.smtp?.description ?? "none",
                  cacheLimitBytes: Int64(account.settings.cacheLimitBytes),
                  deleteGuard: account.settings.deleteGuard,
                  deletesWithoutTrash: account.settings.deleteWithoutTrash)
    }
}
