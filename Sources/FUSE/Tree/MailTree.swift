import Activity
import Foundation
import Logging
import MailContracts
import MailCore
import Store
import Synchronization

/// The mounted tree of docs/REQUIREMENTS.md §C2, served from the local store. Every
/// metadata call is answered from the store or from in-memory listings, never from the
/// network.
///
/// Locking: `listings`, `accounts`, `files`, `contentSources`, `conversations`, the three
/// walks and `readAhead` are independent mutexes, never nested.
public final class MailTree: FilesystemOperations {
    let store: TreeStore
    let settings: Settings
    let logger: Logger
    let listings = ListingCache()
    let accounts: AccountRegistry
    let files = OpenFileTable()
    let contentSources = ContentSourceCache()
    /// Conversations rendered for `conversation.txt` files (`MailTree+Conversations`).
    let conversations: ConversationTexts
    /// The kernel the tree tells about store changes, and how long it trusts the entries
    /// and attributes it is sent (`attach`); nil until a kernel is attached.
    let kernel = Mutex<AttachedKernel?>(nil)

    struct AttachedKernel: Sendable {
        let invalidator: any KernelCacheInvalidator
        let trust: Duration
    }

    /// The attached kernel's invalidator; nil before `attach` (invalidation is a no-op).
    var invalidator: (any KernelCacheInvalidator)? { kernel.withLock { $0?.invalidator } }
    /// The sync engine's services; nil for a mount of imported accounts only.
    let services: MailServices?
    /// outbox/ files being written. Larger than any provider accepts (Gmail 25 MB, most
    /// 50 MB): the server's SIZE, checked at close, is the real limit.
    let drafts = WriteBuffers(maxSize: 100 << 20)
    /// Messages being copied into a folder (servers commonly refuse far less).
    let newMessages = WriteBuffers(maxSize: 64 << 20)
    let heldDeletionReports = HeldDeletionReports()
    /// Recent listings built from the store of an account's directories, its threads and
    /// its attachments/<message>/ directories, to notice a walk over them (`MailTree+Walks`);
    /// and the read-ahead of the walk noticed last.
    let accountWalk = Mutex(DirectoryWalk(missesForWalk: MailTree.missesForAccountWalk))
    let threadWalk = Mutex(DirectoryWalk(missesForWalk: MailTree.missesForSmallDirectoriesWalk))
    let attachmentWalk = Mutex(DirectoryWalk(missesForWalk: MailTree.missesForSmallDirectoriesWalk))
    let readAhead = ListingReadAhead()
    /// The mtime of folders and the other directories whose date says nothing of their own:
    /// the last store change the tree saw. It must move whenever a listing may have: the
    /// kernel keeps a directory's listing while its mtime is the one it had when the cache
    /// was filled (see `storeDidChange`).
    let listingsChangedAt: Mutex<Date>
    /// Query directories the kernel holds (search/<query>/).
    let searchDirectories = SearchDirectories()
    /// The last bad-query line written to `.log`, so a retried lookup is logged once.
    let lastBadQuery = Mutex<String?>(nil)

    public struct Settings: Sendable {
        /// The first mtime of directories other than threads and attachments/<message>/
        /// (`MailTree.listingsChangedAt` moves it on with every store change).
        public var mountedAt = Date()
        /// The config's saved searches, listed in `search/`.
        public var searches = SavedSearches()
        public init() {}
    }

    /// `activities`: the accounts' live state, which the sync engine records into and the
    /// tree shows in `.status` and `.log`; `services`: the sync engine's, when the mount
    /// has configured accounts.
    public init(store: TreeStore, activities: AccountActivities, services: MailServices? = nil,
                settings: Settings = Settings(), logger: Logger = Logger(label: "mailfs.tree")) {
        self.store = store
        self.services = services
        self.settings = settings
        self.logger = logger
        listingsChangedAt = Mutex(settings.mountedAt)
        accounts = AccountRegistry(store: store, activities: activities)
        // Changes before the mount are in no kernel's cache.
        conversations = ConversationTexts(lastVersion: (try? store.latestConversationVersion()) ?? 0)
    }

    /// Set once the session exists; until then invalidation is a no-op. `trust`: how long
    /// the kernel keeps trusting an entry or attributes once sent (`MountOptions.kernelTrust`).
    public func attach(_ kernel: any KernelCacheInvalidator, trustedFor trust: Duration) {
        self.kernel.withLock { $0 = AttachedKernel(invalidator: kernel, trust: trust) }
    }

    /// For a mount gone quiet (docs/DECISIONS.md, "Memory when idle"): gives back the
    /// sources of downloaded content opened so far (one indexed query brings one back at the
    /// file's next open) and the rendered conversations (the kernel's page cache keeps
    /// those read). Listings, the pack regions they read, kept attributes and conversations'
    /// sizes stay: the next `ls`, `find`, `stat` or `cat` needs them, and each would cost a
    /// store query or a rendering.
    public func releaseMemory() {
        contentSources.release()
        conversations.releaseTexts()
    }

    // MARK: FilesystemOperations (metadata)

    public func lookup(parent: Inode, name: String) throws(FSError) -> FileAttributes {
        listings.noteServed(parent)
        guard case .directory(let directory)? = Node(inode: parent) else { throw FSError(ENOTDIR) }
        // A folder whose listing was dropped by a change (rm, mv, a sync) answers from the
        // store directly instead of rebuilding the whole listing for one name, and so does
        // an account for a name that is not one of its files; a name in search/ is a saved
        // search or a query, never looked for in a listing.
        switch directory {
        case .folder(let folderId) where listings.listing(parent) == nil:
            guard let attributes = try folderChild(named: name, in: folderId) else { throw FSError(ENOENT) }
            return attributes
        case .account(let accountId) where listings.listing(parent) == nil && !Self.accountFileNames.contains(name):
            guard let entry = Listing(try storeCall { try accountDirectoryEntries(accountId) }).entry(named: name) else {
                throw FSError(ENOENT)
            }
            return entry.attributes
        case .searches(let accountId):
            return try searchChild(named: name, accountId: accountId)
        case .unifiedSearches:
            return try searchChild(named: name, accountId: nil)
        case .root, .unifiedInbox, .account, .folder, .threads, .thread, .archive, .outbox, .attachments,
             .attachmentMessage, .savedSearch, .search:
            guard let entry = try listing(of: parent).entry(named: name) else { throw FSError(ENOENT) }
            return try lookedUp(entry)
        }
    }

    /// A listed entry's attributes as LOOKUP gives them: those a listing leaves out
    /// (`attributesAtLookup`) are made now.
    private func lookedUp(_ entry: DirectoryEntry) throws(FSError) -> FileAttributes {
        guard entry.attributesAtLookup, let node = Node(inode: entry.attributes.inode) else { return entry.attributes }
        return try attributes(of: node)
    }

    public func getattr(_ inode: Inode) throws(FSError) -> FileAttributes {
        listings.noteServed(inode)
        guard let node = Node(inode: inode) else { throw FSError(ENOENT) }
        return try attributes(of: node)
    }

    public func readdir(_ inode: Inode) throws(FSError) -> [DirectoryEntry] {
        try listing(of: inode).entries
    }

    public func sentListingPage(of inode: Inode) {
        listings.noteServed(inode)
    }

    /// The listing of a directory, built from the store on first use and cached until
    /// the store changes. One built while the store watcher noticed a change is built again
    /// (a few times at most, under a sync committing without pause): it may come from the
    /// snapshot before that change, and the kernel would cache it after its invalidation.
    func listing(of inode: Inode) throws(FSError) -> Listing {
        readAhead.visit(inode)
        if let cached = listings.listing(inode) { return cached }
        guard case .directory(let directory)? = Node(inode: inode) else { throw FSError(ENOTDIR) }
        if let walked = try walkedListing(of: directory) { return walked }
        var attempts = 0
        while true {
            let generation = listings.generation
            let built = try storeCall { try self.builtListing(of: directory) }
            attempts += 1
            if listings.store(built, for: inode, builtIn: generation) || attempts == 3 { return built }
        }
    }

    /// Runs a store read or write (a journal entry too); its failure becomes an errno at
    /// the file operation (`fsError(for:)`), never a crash.
    func storeCall<T>(_ body: () throws -> T) throws(FSError) -> T {
        do {
            return try body()
        } catch {
            throw fsError(for: error)
        }
    }

    /// The one mapping from a failure met serving a file operation to errno: the store's
    /// refusals of a change are what the operation asked for being impossible; a message
    /// the server no longer has is gone, and a download that failed is EIO (the account's
    /// `.log` and `.status` say why); anything else is EIO and a line in the process log,
    /// and damage to the store file found this way is recorded so every `.status` shows
    /// it, whichever operation met it (a read, a journal write, a cached file's read).
    func fsError(for error: any Error) -> FSError {
        switch error {
        case let error as FSError:
            return error
        case let error as LocalChangeError:
            return FSError(error == .notFound ? ENOENT : EPERM)
        case let error as FolderChangeError:
            return FSError(error == .notEmpty ? ENOTEMPTY : EEXIST)
        case let error as ContentUnavailable:
            return FSError(error == .gone ? ENOENT : EIO)
        default:
            logger.error("store error: \(error)")
            store.damage(in: error)
            return FSError(EIO)
        }
    }
}
