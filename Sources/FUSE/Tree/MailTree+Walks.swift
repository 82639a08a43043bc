import Store

/// Walks over many directories (`find`, `grep -r`, `du`): noticed among the listings missed,
/// then read ahead on a thread of their own (`DirectoryWalk`, `ReadAheadPlan`,
/// `ListingReadAhead`). Three walks are told apart: over an account's own directories
/// (folders and views), over its threads, over its attachments/<message>/ directories.
extension MailTree {
    /// Threads and attachments/<message>/ directories loaded with one query.
    static let smallDirectoriesBatch = 64
    /// Misses that make a walk over threads or attachments/<message>/ directories: listing
    /// a few of them by hand is not one.
    static let missesForSmallDirectoriesWalk = 4
    /// Misses that make a walk over an account's own directories. Two: an account has few,
    /// and the first listings of a walk are its largest.
    static let missesForAccountWalk = 2

    /// During a walk, loads `node`'s listing with the walk's next ones and hands the rest of
    /// the walk to the read-ahead; nil when no walk is read ahead (or nothing was cached).
    func walkedListing(of directory: Node.Directory) throws(FSError) -> Listing? {
        var claimed = readAhead.claim(directory.inode)
        if claimed == nil, let missed = noticeWalk(missing: directory), try beginReadAhead(of: directory, missed: missed) {
            claimed = readAhead.claim(directory.inode)
        }
        guard let claimed else { return nil }
        try loadListings(claimed)
        return listings.listing(directory.inode)
    }

    /// The three walks a directory's listing can be part of.
    private enum Walk {
        case account, threads, attachments
    }

    /// The walk `node`'s listing is part of; nil for the directories never read ahead,
    /// whose listings are not built from the store alone: search directories (a listing
    /// there runs its query) and outbox/ (the send queue).
    private static func walk(of directory: Node.Directory) -> Walk? {
        switch directory {
        case .folder, .threads, .attachments, .archive: return .account
        case .thread: return .threads
        case .attachmentMessage: return .attachments
        case .root, .unifiedInbox, .account, .outbox, .searches, .unifiedSearches, .savedSearch, .search: return nil
        }
    }

    private func noticeWalk(missing directory: Node.Directory) -> [Inode]? {
        let inode = directory.inode
        switch Self.walk(of: directory) {
        case .account?: return accountWalk.withLock { $0.noticeWalk(missing: inode, at: .now) }
        case .threads?: return threadWalk.withLock { $0.noticeWalk(missing: inode, at: .now) }
        case .attachments?: return attachmentWalk.withLock { $0.noticeWalk(missing: inode, at: .now) }
        case nil: return nil
        }
    }

    private static func readsAhead(_ inode: Inode) -> Bool {
        guard case .directory(let directory)? = Node(inode: inode) else { return false }
        return walk(of: directory) != nil
    }

    /// Starts reading ahead the walk that missed `missed`, the last being `node`, over the
    /// directories beside `node`, in the order they are walked. False when they are not
    /// walked in an order the plan knows.
    private func beginReadAhead(of directory: Node.Directory, missed: [Inode]) throws(FSError) -> Bool {
        guard let parent = try walkedParent(of: directory) else { return false }
        let children = try listing(of: parent.inode).entries.map(\.attributes.inode).filter(Self.readsAhead)
        var batch = Self.smallDirectoriesBatch
        if case .account = parent { batch = 1 }
        guard let plan = ReadAheadPlan(children: children, missed: missed, batch: batch, at: .now) else { return false }
        readAhead.begin(plan) { directories throws(FSError) in try self.loadListings(directories) }
        return true
    }

    /// The directory whose children a walk through `node` goes over. A folder's is its
    /// account, even for a folder inside another: the plan then finds it is not a child.
    private func walkedParent(of directory: Node.Directory) throws(FSError) -> Node.Directory? {
        switch directory {
        case .thread(let id): return try storeCall { try store.thread(id: id) }.map { .threads($0.accountId) }
        case .attachmentMessage(let id): return try storeCall { try store.message(id: id) }.map { .attachments($0.accountId) }
        case .folder(let id): return try storeCall { try store.folder(id: id) }.map { .account($0.accountId) }
        case .threads(let account), .attachments(let account), .archive(let account): return .account(account)
        case .root, .unifiedInbox, .account, .outbox, .searches, .unifiedSearches, .savedSearch, .search: return nil
        }
    }

    /// Builds and caches the listings of those of `directories` not cached yet: threads and
    /// attachments/<message>/ directories with one query, others one by one.
    func loadListings(_ directories: ArraySlice<Inode>) throws(FSError) {
        let generation = listings.generation
        var threads: [Int64] = []
        var messages: [Int64] = []
        var loaded: [(Inode, Listing)] = []
        for inode in directories where listings.listing(inode) == nil {
            switch Node(inode: inode) {
            case .directory(.thread(let id))?: threads.append(id)
            case .directory(.attachmentMessage(let id))?: messages.append(id)
            case .directory(let directory)?: loaded.append((inode, try storeCall { try builtListing(of: directory) }))
            case .content?, .generated?, .rendered?, .control?, .outboxItem?, .newMessage?, nil: break
            }
        }
        if !threads.isEmpty {
            let byThread = try storeCall { try store.messagesByThread(ids: threads) }
            loaded += threads.map { (Node.Directory.thread($0).inode, threadListing($0, messages: byThread[$0] ?? [])) }
        }
        if !messages.isEmpty {
            let byMessage = try storeCall { try store.attachmentsByEmail(ids: messages) }
            loaded += messages.map { (Node.Directory.attachmentMessage($0).inode, Listing((byMessage[$0] ?? []).map(attachmentEntry))) }
        }
        for (inode, listing) in loaded {
            guard listings.store(listing, for: inode, builtIn: generation) else { return }
        }
    }
}
