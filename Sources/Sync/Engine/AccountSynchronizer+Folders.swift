import Foundation
import IMAP
import MailCore
import Store

extension AccountSynchronizer {
    /// Folder discovery then every selectable folder, INBOX first, each folder on a
    /// connection of the pool. A connection that dies under a folder costs that folder one
    /// retry on a fresh connection (the pool's rule), not the cycle: Dovecot drops every
    /// session that has a mailbox selected when another client deletes it or resets its
    /// UIDVALIDITY, and the folders after it are not at fault. Returns the folders that
    /// failed ("path: reason"); a connection-level failure on the fresh connection too, or
    /// no connection at all, ends the cycle.
    func syncFolders(accountId: Int64) async throws -> [String] {
        activity.record(.listingFolders)
        let folders = try await pool.withConnection(open: openCycleConnection) { connection in
            try await self.discoverFolders(over: connection, accountId: accountId)
        }
        var failures: [String] = []
        rethreads.cycleBegan(at: .now)
        if try store.owesRethread(accountId: accountId) { rethreads.folderChanged() }
        do {
            for (index, folder) in folders.enumerated() {
                activity.record(.folderStarted(index: index, of: folders.count))
                let outcome = try await syncCycleFolder(folder, accountId: accountId, index: index, total: folders.count)
                if let failure = outcome.failure { failures.append(failure) }
                // Only a folder whose messages came, moved or went owes a pass.
                if outcome.changedThreads { rethreads.folderChanged() }
                if rethreads.isDue(at: .now) { try rethreadInCycle(accountId: accountId) }
            }
        } catch {
            // The messages stored before a failure get their threads all the same; on a
            // stop, the next cycle's first look (`owesRethread`) does it.
            if rethreads.isPending && !(error is CancellationError) { try? rethreadInCycle(accountId: accountId) }
            throw error
        }
        try purgeUnfiled(accountId: accountId)
        if rethreads.isPending { try rethreadInCycle(accountId: accountId) }
        // The cycle ends with its mail searchable (and a failure of the index said here).
        // The wait blocks until the index's queue is done: off the cooperative pool.
        let store = self.store
        if case .failure(let error) = await OffPool.run({ Result { try store.flushSearchIndex() } }) {
            activity.log.record("full-text index: \(error); what it lacks is indexed again from the store",
                                level: .error)
        }
        activity.record(.foldersDone(folders.count))
        return failures
    }

    /// One folder of a full cycle: what `syncFolders` needs of it. A folder the server no
    /// longer has, or one that failed without taking its connection down, is logged and
    /// the cycle goes on; a connection-level failure ends the cycle.
    private func syncCycleFolder(_ folder: FolderRecord, accountId: Int64, index: Int,
                                 total: Int) async throws -> (failure: String?, changedThreads: Bool) {
        do {
            let synchronizer = synchronizer(accountId: accountId, cyclePosition: (index, total))
            let gate = mailboxGate
            let result = try await pool.withConnection(open: openCycleConnection) { connection in
                try await gate.withPermit { try await synchronizer.sync(folder, over: connection) }
            }
            if result.changedMessages {
                activity.log.record("\(folder.path): \(result.added) new, \(result.linked) linked, "
                                    + "\(result.removed) removed, \(result.flagChanges) flag changes")
            }
            return (result.failed > 0 ? "\(folder.path): \(result.failed) messages failed" : nil, result.changedThreads)
        } catch let error as IMAPError where error.isMailboxGone {
            // Deleted by another client since LIST: not a failure; the next LIST drops it.
            activity.log.record("\(folder.path): no longer on the server; it leaves at the next sync")
            return (nil, false)
        } catch let error as IMAPError where !error.endsConnection {
            activity.log.record("\(folder.path): \(error); skipped until the next sync", level: .error)
            return ("\(folder.path): \(error)", false)
        }
    }

    /// Generic IMAP: messages the server deleted from their last folder go before the
    /// cycle's pass, so one pass counts them out (`purgeUnfiled` rethreads when it deleted
    /// any, which then is the cycle's pass). Gmail keeps them: they are its archive.
    private func purgeUnfiled(accountId: Int64) throws {
        guard account.provider != .gmail else { return }
        let start = ContinuousClock.now
        if try store.purgeUnfiled(accountId: accountId) > 0 { rethreads.passRan(from: start, to: .now) }
    }

    /// A full cycle's pass: `.status` shows it as the cycle's indexing phase.
    private func rethreadInCycle(accountId: Int64) throws {
        activity.record(.indexing)
        try rethread(accountId: accountId)
    }

    /// A pass over the account's threads, timed for `rethreads`.
    private func rethread(accountId: Int64) throws {
        let start = ContinuousClock.now
        try store.rethread(accountId: accountId)
        rethreads.passRan(from: start, to: .now)
    }

    /// The incremental sync of one folder alone: the INBOX when IDLE reports news
    /// (FR-SYNC-03), Sent after mailfs appended copies of sent mail.
    public func syncFolder(ofType type: FolderType, reason: String) async {
        do {
            let accountId = try resolveAccountId()
            guard let folder = try store.folders(accountId: accountId).first(where: { $0.type == type && $0.isSelectable })
            else { return }
            let synchronizer = synchronizer(accountId: accountId, cyclePosition: nil)
            let gate = mailboxGate
            let result = try await pool.withConnection(open: openConnection) { connection in
                try await gate.withPermit { try await synchronizer.sync(folder, over: connection) }
            }
            if result.changedThreads { try rethread(accountId: accountId) }
            if result.changedMessages {
                activity.log.record("\(folder.path) (\(reason)): \(result.added) new, \(result.removed) removed, "
                                    + "\(result.flagChanges) flag changes")
            }
            activity.record(.folderSynced)
        } catch {
            activity.log.record("\(type.rawValue) sync after \(reason) failed: \(Self.describe(error, store: store))", level: .error)
        }
    }

    /// IDLE reported news in the INBOX: its new mail is stored first, over the IDLE
    /// connection (`selected` is its INBOX), so it shows before the full sync of the INBOX
    /// (expunges, flags) has run; then that sync runs on a pooled connection. A failure of
    /// the first step is logged and left to the full sync.
    func syncInbox(afterIdleOn connection: IMAPConnection, selected: SelectedMailbox) async {
        do {
            let accountId = try resolveAccountId()
            guard let folder = try store.folders(accountId: accountId).first(where: { $0.type == .inbox && $0.isSelectable })
            else { return }
            let synchronizer = synchronizer(accountId: accountId, cyclePosition: nil)
            let result = try await mailboxGate.withPermit {
                try await synchronizer.fetchArrivals(folder, selected: selected, over: connection)
            }
            if result.changedThreads { try rethread(accountId: accountId) }
            if result.changedMessages {
                activity.log.record("\(folder.path) (IDLE): \(result.added) new, \(result.linked) linked")
            }
        } catch {
            activity.log.record("new mail by IDLE not fetched at once (\(Self.describe(error, store: store))); "
                                + "the INBOX sync fetches it", level: .warning)
        }
        await syncFolder(ofType: .inbox, reason: "IDLE")
    }

    /// A folder's synchronizer; only the full sync's (at `cyclePosition`) reports progress,
    /// which `.status` shows as the cycle's.
    private func synchronizer(accountId: Int64, cyclePosition: (index: Int, total: Int)?) -> FolderSynchronizer {
        let activity = self.activity
        return FolderSynchronizer(
            store: store, accountId: accountId, windowDays: account.settings.syncWindowDays,
            rawStoreMaxBytes: account.settings.rawStoreMaxBytes, log: activity.log,
            progress: { fetched, all in
                guard let (index, total) = cyclePosition else { return }
                activity.record(.messagesFetched(fetched, of: all, folder: index, folders: total))
            }, logger: logger)
    }

    /// LIST (with SPECIAL-USE) and the namespace, mapped per FR-SYNC-01, mirrored into the store.
    private func discoverFolders(over connection: IMAPConnection, accountId: Int64) async throws -> [FolderRecord] {
        let listed = try await connection.list()
        let namespace = try await NamespaceReader.read(over: connection, listed: listed)
        let server = listed.map { entry in
            ServerFolder(name: entry.name, delimiter: entry.delimiter,
                         attributes: Set(entry.attributes.map { $0.lowercased() }))
        }
        let rules = RoleRules(byName: account.provider != .gmail, trashFolder: account.settings.trashFolder)
        let mapped = FolderMapping.map(server, namespace: namespace, rules: rules)
        if let trashFolder = rules.trashFolder, !mapped.contains(where: { $0.type == .trash }) {
            activity.log.record("trash_folder \"\(trashFolder)\": no such folder on the server; rm is refused "
                                + "until it exists", level: .warning)
        }
        var records: [FolderRecord] = []
        for folder in mapped {
            let record = try store.ensureFolder(accountId: accountId, path: folder.path,
                                                imapPath: folder.imapPath, type: folder.type,
                                                isSelectable: folder.isSelectable)
            if folder.isSelectable { records.append(record) }
        }
        try store.removeFolders(accountId: accountId, keepingIMAPPaths: Set(mapped.map(\.imapPath)))
        return records.sorted { ($0.type == .inbox ? 0 : 1, $0.path) < ($1.type == .inbox ? 0 : 1, $1.path) }
    }
}
