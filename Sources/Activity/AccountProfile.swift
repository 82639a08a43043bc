import Config
import Foundation

/// How an account is reached, as `.status` prints it (from the config; no secrets).
public struct AccountProfile: Sendable, Equatable {
    /// The server family: Gmail's labels change what rm and mv do.
    public enum Provider: String, Sendable {
        case gmail, generic, offline
    }

    /// How the account logs in.
    public enum Auth: String, Sendable {
        case plain, xoauth2, none
    }

    public var name: String
    public var address: String
    public var provider: Provider
    public var auth: Auth
    /// `host:port security`, or "none" for offline accounts.
    public var imap: String
    public var smtp: String
    /// `cache_limit_mb`, for the `cache:` line.
    public var cacheLimitBytes: Int64
    /// `delete_guard`: deletions beyond this many within 60 s are held (0: no guard).
    public var deleteGuard: Int
    /// `delete_without_trash`: rm deletes for good on a server with no Trash folder.
    public var deletesWithoutTrash: Bool

    public init(name: String, address: String, provider: Provider, auth: Auth, imap: String, smtp: String,
                cacheLimitBytes: Int64 = Int64(AccountSettings().cacheLimitBytes), deleteGuard: Int = AccountSettings().deleteGuard,
                deletesWithoutTrash: Bool = false) {
        self.deleteGuard = deleteGuard
        self.deletesWithoutTrash = deletesWithoutTrash
        self.name = name
        self.address = address
        self.provider = provider
        self.auth = auth
        self.imap = imap
        self.smtp = smtp
        self.cacheLimitBytes = cacheLimitBytes
    }

    /// An account imported with `mailfs import`: no server at all. Its guard is the
    /// config's `[defaults]` one, as for a configured account with none of its own.
    public static func offline(name: String, address: String,
                               deleteGuard: Int = AccountSettings().deleteGuard) -> AccountProfile {
        AccountProfile(name: name, address: address, provider: .offline, auth: .none,
                       imap: "none", smtp: "none", deleteGuard: deleteGuard)
    }
}
