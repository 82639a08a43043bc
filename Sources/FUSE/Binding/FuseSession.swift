import CFuse3
import Foundation
import Synchronization

/// One mount of a `FilesystemOperations` through the libfuse3 low-level API.
///
///     let session = FuseSession(filesystem: tree, options: MountOptions(mountPoint: path))
///     try session.mount()   // checks the mount point, then mounts; returns once mounted
///     try session.run()     // serves requests on this thread until unmounted or signalled
///
/// A session is used once: mount, run, end. It ends with `fusermount3 -u`, with SIGINT,
/// SIGTERM or SIGHUP (when `options.handleSignals`), or with `unmount()` from any thread;
/// `run()` then unmounts, destroys the session and returns.
public final class FuseSession: Sendable {
    public let options: MountOptions
    /// Kernel cache invalidation for this mount; a no-op outside mount...end.
    public let invalidator: Invalidator
    private let dispatcher: FuseDispatcher

    private struct Mounted: Sendable {
        let session: SessionPointer
        let path: String
    }

    private enum Phase {
        case created
        case mounted(Mounted)
        case running(Mounted)
        case ended
    }

    // GUARDED_BY(phase). Every use of the session pointer outside the loop happens under it.
    private let phase = Mutex(Phase.created)

    public init(filesystem: any FilesystemOperations, options: MountOptions,
                invalidator: Invalidator = Invalidator()) {
        self.options = options
        self.invalidator = invalidator
        self.dispatcher = FuseDispatcher(filesystem: filesystem, options: options,
                                         owner: .mountingUser)
    }

    /// Requests answered since the session was made; only ever grows.
    public var requestCount: UInt64 { dispatcher.requestCount.load(ordering: .relaxed) }

    deinit {
        if case .mounted(let mounted) = phase.withLock({ $0 }) { tearDown(mounted) }
    }

    /// Checks the mount point (`MountPoint.check`) and mounts. The kernel queues requests
    /// until `run()` starts answering them.
    public func mount() throws {
        try phase.withLock { phase in
            guard case .created = phase else { throw FuseSessionError.alreadyStarted }
            try MountPoint.check(options.mountPoint, allowNonEmpty: options.allowNonEmpty)
            let path = Self.absolute(options.mountPoint)
            let session = try createSession()
            guard fuse_session_mount(session.raw, path) == 0 else {
                fuse_session_destroy(session.raw)
                throw FuseSessionError.mountFailed(path: path)
            }
            invalidator.attach(session)
            phase = .mounted(Mounted(session: session, path: path))
        }
    }

    /// Serves requests (`RequestLoop`), blocking the calling thread until the
    /// mount ends; the caller picks the thread. Do not call it on the main thread if anything
    /// else needs the main thread (`DispatchQueue.main`, `@MainActor` would never run).
    /// Returns normally after `fusermount3 -u`, a signal or `unmount()`; throws if the loop
    /// failed. Either way the mount is gone and the session destroyed when it returns.
    public func run() throws {
        let mounted = try phase.withLock { phase throws -> Mounted in
            guard case .mounted(let mounted) = phase else { throw FuseSessionError.notMounted }
            phase = .running(mounted)
            return mounted
        }
        let signals = options.handleSignals ? SignalHandlers.install(for: mounted.session) : true
        let waker = LoopWaker(session: mounted.session, mountPoint: mounted.path)
        let result = signals ? loop(mounted.session) : 0
        waker.stop()
        if options.handleSignals { fuse_remove_signal_handlers(mounted.session.raw) }
        phase.withLock { phase in
            phase = .ended
            invalidator.detach()
            fuse_session_unmount(mounted.session.raw)
        }
        // After the unmount: a STATFS the waker sent to a loop that had just ended is
        // released by the closed connection, so the waker can be joined.
        waker.join()
        fuse_session_destroy(mounted.session.raw)
        guard signals else { throw FuseSessionError.signalHandlersNotInstalled }
        if result < 0 { throw FuseSessionError.loopFailed(errno: -result) }
    }

    /// Ends the session from any thread. While `run()` serves, this asks the loop to stop and
    /// returns at once; `run()` unmounts and returns shortly after. Mounted but not running:
    /// unmounts now. Otherwise does nothing.
    public func unmount() {
        phase.withLock { phase in
            switch phase {
            case .created:
                phase = .ended
            case .mounted(let mounted):
                phase = .ended
                tearDown(mounted)
            case .running(let mounted):
                fuse_session_exit(mounted.session.raw)
            case .ended:
                break
            }
        }
    }

    private func tearDown(_ mounted: Mounted) {
        invalidator.detach()
        fuse_session_unmount(mounted.session.raw)
        fuse_session_destroy(mounted.session.raw)
    }

    private func loop(_ session: SessionPointer) -> Int32 {
        RequestLoop(session: session, maxThreads: options.maxThreads,
                    wakeLatency: BurstWakeLatency(enabled: options.keepsCPUsAwakeInBursts)).run()
    }

    /// fuse_session_new with our operations table; userdata is the dispatcher, unretained
    /// (this session owns it and outlives the libfuse session).
    private func createSession() throws -> SessionPointer {
        var operations = makeLowLevelOperations()
        let userdata = Unmanaged.passUnretained(dispatcher).toOpaque()
        var argv: [UnsafeMutablePointer<CChar>?] = options.sessionArguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let raw = argv.withUnsafeMutableBufferPointer { argv in
            var arguments = fuse_args(argc: Int32(argv.count), argv: argv.baseAddress, allocated: 0)
            // libfuse replaces `arguments` with copies it allocated while parsing.
            defer { fuse_opt_free_args(&arguments) }
            return fuse_session_new(&arguments, &operations,
                                    MemoryLayout<fuse_lowlevel_ops>.size, userdata)
        }
        guard let raw else { throw FuseSessionError.sessionNotCreated }
        return SessionPointer(raw: raw)
    }

    /// The kernel records the mount point as given; the waker and /proc/mounts want it whole.
    private static func absolute(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
