import ArgumentParser
import Activity
import Config
import FUSE
import Foundation
import Logging
import Store
import Sync

struct MountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mount",
        abstract: "Mount every account at DIR, in the foreground (Ctrl-C or fusermount3 -u DIR unmounts).",
        discussion: """
            To mount at every login instead, as a systemd user service: mailfs install-service DIR.


            """ + ConfigHelp.helpText)

    @Argument(help: "An empty directory to mount on.")
    var mountPoint: String

    @Flag(help: "Let other users see the mount (needs user_allow_other in /etc/fuse.conf).")
    var allowOther = false

    @Flag(help: "Log every step (and libfuse's own trace with --fuse-debug).")
    var verbose = false

    @Flag(help: "libfuse request trace on stderr.")
    var fuseDebug = false

    @Flag(inversion: .prefixedNo,
          help: "While a command reads the tree in a burst (grep -r, find), keep idle CPUs polling instead of sleeping (needs root).")
    var burstPolling = true

    @Option(help: .hidden)
    var cacheSeconds: Double = 60

    /// Tests only: the process kills itself (SIGKILL) when the write-back reaches this
    /// `WriteBackPoint`, to check that the next run finishes the change.
    @Option(help: .hidden)
    var crashAt: String?

    @OptionGroup var location: LocationOptions

    func validate() throws {
        guard cacheSeconds >= 0 && cacheSeconds <= 86_400 else {
            throw ValidationError("--cache-seconds must be between 0 and 86400")
        }
        if let crashAt, WriteBackPoint(rawValue: crashAt) == nil {
            throw ValidationError("--crash-at must be one of " + WriteBackPoint.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }

    func run() throws {
        // glibc gives each thread that allocates its own arena; with libfuse's worker
        // threads copying message bytes that multiplies resident memory. Two arenas keep
        // the mount within its memory budget at no measurable cost.
        _ = glibcMallopt(mallocArenaMax, 2)
        let level: Logger.Level = verbose ? .debug : .info
        if JournalLogHandler.stderrIsJournalStream {
            LoggingSystem.bootstrap { label in JournalLogHandler(label: label, logLevel: level) }
        } else {
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        }
        let config = try location.loadConfig()
        try location.withStore { store in try serve(store, config: config) }
    }

    /// Mounts `store` and serves it until the mount ends; every way it ends (`fusermount3
    /// -u`, Ctrl-C, SIGTERM from systemd) comes back here and stops what it started
    /// (`MountServices`), and `withStore` then closes the store.
    private func serve(_ store: MailStore, config: MailfsConfig?) throws {
        // Files being written when a previous run died were never acknowledged to their writer.
        try store.tree.removeDrafts()
        // Recipients a server took messages for just before the previous run died: never sent to again.
        let accepted = try store.sync.recoverDeliveries()
        if accepted > 0 {
            say("\(accepted) message(s) the server accepted just before the last run stopped are marked sent", .notice)
        }
        for account in config?.accounts ?? [] {
            try store.sync.ensureAccount(name: account.name, address: account.address, isOffline: false)
        }
        var settings = MailTree.Settings()
        settings.searches = SavedSearches(
            shared: config?.searches ?? [],
            byAccount: Dictionary((config?.accounts ?? []).map { ($0.name, $0.searches) }, uniquingKeysWith: { first, _ in first }))
        let activities = AccountActivities(profiles: AccountProfiles.make(config: config),
                                           importedDeleteGuard: AccountProfiles.importedDeleteGuard(config: config))
        let crashPoint = crashAt.flatMap(WriteBackPoint.init(rawValue:))
        let coordinator = config.map {
            SyncCoordinator(config: $0, store: store.sync, activities: activities,
                            writeBackReached: { point in if point == crashPoint { kill(getpid(), SIGKILL) } })
        }
        let tree = MailTree(store: store.tree, activities: activities,
                            services: coordinator.map { SyncEngine.services(of: $0, store: store.sync) }, settings: settings)
        // Names and attributes are trusted by the kernel for `cacheSeconds` (a minute; the
        // tests shorten it): every change to the store is told to it (`MailTree.storeDidChange`).
        let options = MountOptions(mountPoint: mountPoint, entryTimeout: cacheSeconds, attributeTimeout: cacheSeconds,
                                   negativeEntryTimeout: 0,
                                   allowOther: allowOther, debug: fuseDebug, keepsCPUsAwakeInBursts: burstPolling,
                                   spaceReportPath: store.databaseURL.deletingLastPathComponent().path)
        let session = FuseSession(filesystem: tree, options: options)
        // Composed before mounting: touching the mount point before the loop serves would
        // wait on ourselves.
        let banner = try Banner.text(mountPoint: mountPoint, store: store,
                                     configPath: config == nil ? nil : location.configPath,
                                     windows: Dictionary((config?.accounts ?? []).map { ($0.name, $0.settings.syncWindowDays) },
                                                         uniquingKeysWith: { first, _ in first }))
        let canonicalMountPoint = LiveMount.canonicalPath(mountPoint)
        try mount(session)
        tree.attach(session.invalidator, trustedFor: options.kernelTrust)
        let services = try MountServices(canonicalMountPoint: canonicalMountPoint, session: session, store: store,
                                         tree: tree, coordinator: coordinator)
        defer { services.stop() }
        FileHandle.standardOutput.write(Data((JournalLogHandler.stderrIsJournalStream ? Self.journalLines(banner) : banner + "\n").utf8))
        let notifier = ServiceNotifier()
        if notifier.isActive { announceReady(to: notifier) }
        try session.run()
        notifier.notify("STOPPING=1")
        say("unmounted \(mountPoint)")
        try reportUnsent(store)
    }

    /// A line for the person or the journal watching the mount: on stderr, with the
    /// journal's priority prefix when it is the journal (`JournalLogHandler`).
    private func say(_ text: String, _ level: Logger.Level = .info) {
        let prefix = JournalLogHandler.stderrIsJournalStream ? "<\(JournalLogHandler.priority(of: level))>" : ""
        FileHandle.standardError.write(Data("\(prefix)mailfs: \(text)\n".utf8))
    }

    /// Text for the journal: every line with the info priority (stdout is the journal's
    /// stream too when stderr is).
    static func journalLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "<6>\($0)\n" }.joined()
    }

    /// Mounts; a stale mount a crashed run left there is detached first, with a word.
    private func mount(_ session: FuseSession) throws {
        do {
            try session.mount()
        } catch MountPointError.stale(let path) where MountPoint.detachStale(path) {
            say("\(path) was still mounted by a mailfs that stopped without unmounting "
                + "(transport endpoint is not connected); detached it", .warning)
            do {
                try session.mount()
            } catch let error as MountPointError {
                throw CleanExit.failure(error.description)
            }
        } catch let error as MountPointError {
            throw CleanExit.failure(error.description)
        }
    }

    /// READY=1 once the mount answers: a stat of the mount point's root waits for the
    /// loop `session.run()` starts.
    private func announceReady(to notifier: ServiceNotifier) {
        let path = mountPoint
        Thread.detachNewThread {
            var status = stat()
            guard stat(path, &status) == 0 else { return }
            notifier.notify("READY=1\nSTATUS=mounted at \(path)")
        }
    }

    /// Mail left queued in an outbox is sent at the next start; the exit status says so
    /// (`ServiceUnit.stoppedWithQueuedMail`), and the log names how many.
    private func reportUnsent(_ store: MailStore) throws {
        let unsent = try store.accounts().reduce(0) { total, account in
            guard let id = account.id, let counts = try? store.tree.outboxCounts(accountId: id) else { return total }
            return total + counts.queued + counts.sending
        }
        guard unsent > 0 else { return }
        say("\(unsent) message(s) still queued in outbox/: sent at the next start", .warning)
        throw ExitCode(ServiceUnit.stoppedWithQueuedMail)
    }
}

/// glibc's mallopt and M_ARENA_MAX (malloc.h is not part of the Glibc module).
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
private let mallocArenaMax: Int32 = -8
