import Config
import Foundation
import MailCore
import Store

/// `search/` (docs/ARCHITECTURE.md, "Search directories"): at the mount root over every
/// account, and in each account. Listing it shows the saved searches; looking up any other
/// name runs that name as a query, and its directory lists the matching messages under
/// their usual names and inodes. Results are listings like any other: after every change
/// (`storeDidChange`) rebuilt from the store while the kernel may still trust them, and
/// the kernel told what vanished.
extension MailTree {
    /// `search/` of an account (nil: the root's): one directory per saved search.
    func searchRootEntries(accountId: Int64?) throws -> [DirectoryEntry] {
        try savedSearches(accountId: accountId).enumerated().map { index, saved in
            DirectoryEntry(name: saved.name, attributes: directoryAttributes(
                .savedSearch(SavedSearchID.make(accountId: accountId, index: index))))
        }
    }

    /// A name in `search/`: a saved search, else a query. A malformed query is ENOENT, with
    /// the reason in `.log`; names starting with '.' are never queries (tools probe `.git`,
    /// `.hidden`, `.Trash`).
    func searchChild(named name: String, accountId: Int64?) throws(FSError) -> FileAttributes {
        let saved = try storeCall { try savedSearches(accountId: accountId) }
        if let index = saved.firstIndex(where: { $0.name == name }) {
            return directoryAttributes(.savedSearch(SavedSearchID.make(accountId: accountId, index: index)))
        }
        guard !name.hasPrefix(".") else { throw FSError(ENOENT) }
        do {
            let query = try SearchParser.parse(name)
            let scope: SearchScope = accountId.map { .account($0) } ?? .everyAccount
            let id = searchDirectories.open(SearchDirectory(scope: scope, name: name, query: query))
            return directoryAttributes(.search(id))
        } catch {
            logBadQuery(name, error, accountId: accountId)
            throw FSError(ENOENT)
        }
    }

    /// The search a saved-search or query node stands for.
    func searchDirectory(_ directory: Node.Directory) throws(FSError) -> SearchDirectory {
        switch directory {
        case .search(let id):
            guard let directory = searchDirectories.directory(id) else { throw FSError(ENOENT) }
            return directory
        case .savedSearch(let id):
            let (accountId, index) = SavedSearchID.split(id)
            let saved = try storeCall { try savedSearches(accountId: accountId) }
            // The config's queries were parsed when it was loaded: this cannot fail.
            guard saved.indices.contains(index), let query = try? SearchParser.parse(saved[index].query) else {
                throw FSError(ENOENT)
            }
            return SearchDirectory(scope: accountId.map { .account($0) } ?? .everyAccount, name: saved[index].name, query: query)
        case .root, .unifiedInbox, .account, .folder, .threads, .thread, .archive, .outbox, .attachments,
             .attachmentMessage, .searches, .unifiedSearches:
            throw FSError(ENOTDIR)
        }
    }

    /// The matching messages, oldest first; across accounts named like the unified inbox.
    func searchEntries(_ directory: SearchDirectory) throws -> [DirectoryEntry] {
        let messages = try store.messages(matching: directory.query, in: directory.scope)
        return directory.scope == .everyAccount ? try prefixedEntries(messages) : messageEntries(messages)
    }

    /// The kernel forgot `lookups` references to an inode: a query directory nobody holds
    /// any more is dropped with its listing.
    public func forget(_ inode: Inode, lookups: UInt64) {
        guard case .directory(.search(let id))? = Node(inode: inode), searchDirectories.release(id, references: lookups) else { return }
        listings.forget(inode)
    }

    private func savedSearches(accountId: Int64?) throws -> [SavedSearch] {
        guard let accountId else { return settings.searches.list(forAccount: nil) }
        guard let account = try accounts.record(id: accountId) else { throw FSError(ENOENT) }
        return settings.searches.list(forAccount: account.name)
    }

    /// The reason a lookup in `search/` failed, in the account's `.log` (every account's
    /// for the root's `search/`); a shell retrying the same name logs it once.
    private func logBadQuery(_ name: String, _ error: any Error, accountId: Int64?) {
        let line = "search: \"\(name)\" is not a query: \(error)"
        guard lastBadQuery.withLock({ last in defer { last = line }; return last != line }) else { return }
        let targets = accountId.map { [$0] } ?? ((try? accounts.all().compactMap(\.id)) ?? [])
        for id in targets { activityLog(id, line, level: .warning) }
    }
}
