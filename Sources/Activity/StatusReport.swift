import Foundation
import Store

/// Renders `.status` files (docs/REQUIREMENTS.md §C5). The keys and their order are a contract.
public enum StatusReport {
    public struct AccountFacts: Sendable {
        public var activity: AccountActivity.State
        public var profile: AccountProfile
        public var lastSync: Date?
        public var outbox: (queued: Int, sending: Int, failed: Int)
        public var cacheBytes: Int64
        public var cacheLimitBytes: Int64
        public var folders: [FolderStatusRow]
        public var journal: (pending: Int, heldDeletes: Int)
        /// Set for an account's own `.status` (the root one shows only the total).
        public var storage: StorageUse?

        public init(activity: AccountActivity.State, profile: AccountProfile, lastSync: Date?,
                    outbox: (queued: Int, sending: Int, failed: Int), cacheBytes: Int64,
                    cacheLimitBytes: Int64, folders: [FolderStatusRow], journal: (pending: Int, heldDeletes: Int)) {
            self.journal = journal
            self.activity = activity
            self.profile = profile
            self.lastSync = lastSync
            self.outbox = outbox
            self.cacheBytes = cacheBytes
            self.cacheLimitBytes = cacheLimitBytes
            self.folders = folders
        }
    }

    public static func account(_ facts: AccountFacts) -> String {
        let state = facts.activity
        let lines = [
            ("account", facts.profile.name),
            ("address", facts.profile.address.isEmpty ? "none" : facts.profile.address),
            ("provider", facts.profile.provider.rawValue),
            ("auth", facts.profile.auth.rawValue),
            ("imap", facts.profile.imap),
            ("smtp", facts.profile.smtp),
            ("online", state.online ? "yes" : "no"),
            ("phase", state.phase.rawValue),
            ("last_sync", facts.lastSync.map(ISO8601.format) ?? "never"),
            ("last_error", state.lastError ?? "none"),
            ("idle", state.idle.rawValue),
            ("progress", state.progress),
            ("connections", state.connections),
            ("outbox", "\(facts.outbox.queued) queued, \(facts.outbox.sending) sending, \(facts.outbox.failed) failed"),
            ("cache", "\(megabytes(facts.cacheBytes)) / \(megabytes(facts.cacheLimitBytes))"),
            ("held_deletes", String(facts.journal.heldDeletes)),
            ("outbox_error", state.outboxError ?? "none"),
            ("pending_changes", String(facts.journal.pending)),
            ("change_error", state.changeError ?? "none"),
            ("purged_outside_window", String(state.purgedOutsideWindow)),
            ("server_alert", state.serverAlert ?? "none"),
        ] + storageLines(facts.storage)
        // Values quote servers (errors, alerts) and users (refused files): one line each,
        // nothing a terminal would run.
        var text = lines.map { "\($0.0): \(TerminalSafeText.escaped($0.1))\n" }.joined()
        text += "\n" + folderTable(facts.folders)
        return text
    }

    private static func storageLines(_ storage: StorageUse?) -> [(String, String)] {
        guard let storage else { return [] }
        return [("storage_messages", megabytes(storage.messages)), ("storage_content", megabytes(storage.content)),
                ("storage_index", megabytes(storage.index))]
    }

    /// Above this, the root `.status` warns (docs/REQUIREMENTS.md, product spec §8.3).
    public static let diskWarningBytes: Int64 = 5_000_000_000

    /// The root `.status`: one line per account, the disk mailfs uses (and a warning above
    /// 5 GB, and one when deleted mail's space is not given back), then the summary line.
    public static func root(_ accounts: [(name: String, facts: AccountFacts)], diskUse: Int64,
                            spaceProblem: String? = nil) -> String {
        var text = ""
        var failing = 0
        for (name, facts) in accounts {
            let errors = facts.activity.lastError == nil ? 0 : 1
            failing += errors
            let last = facts.lastSync.map(ISO8601.format) ?? "never"
            text += "\(name): \(facts.activity.phase.rawValue), last sync \(last), \(errors) errors\n"
        }
        // The summary stays the last line (scripts read it with tail -1).
        text += "storage: \(megabytes(diskUse))\n"
        if diskUse > diskWarningBytes {
            text += "warning: mailfs uses more than 5 GB on disk; `mailfs cache clear` or a smaller sync_window_days frees space\n"
        }
        if let spaceProblem { text += "warning: \(spaceProblem)\n" }
        text += failing == 0 ? "all accounts synced\n" : "\(failing) accounts have errors\n"
        return text
    }

    static func folderTable(_ folders: [FolderStatusRow]) -> String {
        let header = ["folder", "type", "uidvalidity", "last_sync", "messages", "unread"]
        let rows = folders.map { row in
            [row.path.replacingOccurrences(of: " ", with: "_"), row.type,
             row.uidValidity.map(String.init) ?? "-",
             row.lastSyncDate.map(ISO8601.format) ?? "never",
             String(row.messages), String(row.unread)]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        return ([header] + rows).map { cells in
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index] + 2, withPad: " ", startingAt: 0)
            }.joined() + "\n"
        }.joined()
    }

    static func megabytes(_ bytes: Int64) -> String {
        let mb = Double(bytes) / 1_048_576
        return mb == mb.rounded() ? "\(Int(mb)) MB" : String(format: "%.1f MB", mb)
    }
}

extension StatusReport.AccountFacts {
    /// What `.status` can show when the store cannot be read: the live state and the
    /// profile, every count zero, no folder rows (the keys stay the contract).
    public static func storeUnreadable(_ account: AccountRecord, activity: AccountActivity.State,
                                       profile: AccountProfile) -> Self {
        var facts = Self(activity: activity, profile: profile, lastSync: account.lastSyncDate, outbox: (0, 0, 0),
                         cacheBytes: 0, cacheLimitBytes: profile.cacheLimitBytes, folders: [], journal: (0, 0))
        facts.storage = StorageUse(messages: 0, content: 0, index: 0)
        return facts
    }
}
