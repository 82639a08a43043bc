import Activity
import Foundation
import Store

/// "No message is ever hidden": for a folder, the messages its source holds (the mbox or
/// Maildir imported, the server's mailbox), the files its directory lists and the count
/// its `.status` shows must agree. Every import and sync test checks it:
///
///     #expect(try ListingInvariant.counts(store, account: "work", folder: "inbox") == .agreeing(on: 3))
public enum ListingInvariant {
    /// What one folder shows, each way a user can count it.
    public struct Counts: Equatable, CustomStringConvertible, Sendable {
        /// Files in the folder's directory (what readdir lists).
        public var listed: Int
        /// Distinct names among them: two messages never share one.
        public var distinctNames: Int
        /// The `messages` column of the folder's row in the account's `.status`.
        public var status: Int?

        public static func agreeing(on count: Int) -> Counts {
            Counts(listed: count, distinctNames: count, status: count)
        }

        public var description: String {
            "listed \(listed), distinct names \(distinctNames), .status \(status.map(String.init) ?? "no row")"
        }
    }

    public struct MissingFolder: Error, CustomStringConvertible {
        public var account: String
        public var folder: String
        public var description: String { "no folder \(folder) in account \(account)" }
    }

    public static func counts(_ store: MailStore, account: String, folder path: String) throws -> Counts {
        guard let record = try store.account(named: account), let accountId = record.id,
              let folderId = try store.folders(accountId: accountId).first(where: { $0.path == path })?.id else {
            throw MissingFolder(account: account, folder: path)
        }
        let names = try store.tree.messages(inFolder: folderId).map(\.fileName)
        return Counts(listed: names.count, distinctNames: Set(names).count,
                      status: try statusCount(store, record, folder: path))
    }

    /// The count read back from the rendered `.status` text, as a script would read it.
    private static func statusCount(_ store: MailStore, _ account: AccountRecord, folder path: String) throws -> Int? {
        let profile = AccountProfile(name: account.name, address: account.address, provider: .generic,
                                     auth: .none, imap: "none", smtp: "none")
        guard let facts = try store.tree.statusFacts(account, activity: AccountActivity(profile: profile).snapshot,
                                                profile: profile) else { return nil }
        let text = StatusReport.account(facts)
        let table = text.components(separatedBy: "\n\n").last ?? ""
        let rows = table.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let name = path.replacingOccurrences(of: " ", with: "_")
        return rows.first { $0.first.map(String.init) == name }.flatMap { $0.count > 4 ? Int($0[4]) : nil }
    }
}
