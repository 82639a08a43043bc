import Foundation
import Store

/// The one screen `mailfs mount` prints once mounted: what is where, how to stop.
enum Banner {
    /// `windows`: each configured account's `sync_window_days`, for the retention notice.
    static func text(mountPoint: String, store: MailStore, configPath: String?, windows: [String: Int]) throws -> String {
        let path = URL(fileURLWithPath: mountPoint).standardizedFileURL.path
        var lines = ["mailfs is mounted at \(path)", ""]
        let accounts = try store.accounts()
        for account in accounts {
            let kind = account.isOffline ? "offline (imported)" : "IMAP"
            let count = try store.tree.folderMessageCount(accountId: account.id ?? -1)
            lines.append("  \(path)/\(account.name)/  \(kind), \(count) messages in folders")
        }
        for account in accounts {
            guard let id = account.id, let days = windows[account.name] else { continue }
            let older = try store.sync.countOutsideWindow(accountId: id, arrivedBefore: SyncWindow.cutoff(days: days))
            guard older > 0 else { continue }
            lines.append("  notice: \(account.name): reducing the sync window removes local copies of older mail; "
                         + "nothing is deleted on the server (\(older) messages older than \(days) days go at the next sync)")
        }
        if accounts.isEmpty {
            lines.append("  no accounts yet: write \(configPath ?? "~/.config/mailfs/config.toml") "
                         + "(see mailfs mount --help) or run: mailfs import NAME ~/Maildir")
        }
        lines += [
            "",
            "  config: \(configPath ?? "none")",
            "  store:  \(store.databaseURL.deletingLastPathComponent().path)",
            "",
            "Try:     ls \(path)/\(accounts.first?.name ?? "ACCOUNT")/inbox ; cat \(path)/.status",
            "Unmount: Ctrl-C here, or fusermount3 -u \(path) from another shell",
        ]
        return lines.joined(separator: "\n")
    }
}
