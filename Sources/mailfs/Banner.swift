import Foundation
import Store

/// The one screen `mailfs mount` prints once mounted: what is where, how to stop.
enum Banner {
    static func text(mountPoint: String, store: MailStore, configPath: String?) throws -> String {
        let path = URL(fileURLWithPath: mountPoint).standardizedFileURL.path
        var lines = ["mailfs is mounted at \(path)", ""]
        let accounts = try store.accounts()
        for account in accounts {
            let kind = account.isOffline ? "offline (imported)" : "IMAP"
            let count = try store.folderMessageCount(accountId: account.id ?? -1)
            lines.append("  \(path)/\(account.name)/  \(kind), \(count) messages in folders")
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
