import FUSE
import Foundation
import Testing

extension MountedTests {
    @Suite("Ending a session") struct Lifecycle {
        @Test("fusermount3 -u ends the loop and leaves a plain directory")
        func fusermountEndsLoop() throws {
            let mount = try TestMount()
            #expect(try mount.tool("ls", mount.path("")).status == 0)
            try mount.unmountWithFusermount()
            #expect(!isMountPoint(mount.mountPoint))
            try MountPoint.check(mount.mountPoint)
            mount.removeDirectories()
        }

        @Test("unmount() from another thread ends the loop")
        func unmountEndsLoop() throws {
            let mount = try TestMount()
            #expect(try mount.tool("cat", mount.path("hello.txt")).status == 0)
            mount.session.unmount()
            #expect(mount.waitForLoopEnd(), "\(mount.loopFailure ?? "timeout")")
            #expect(!isMountPoint(mount.mountPoint))
            mount.removeDirectories()
        }

        @Test("SIGTERM ends the loop", arguments: [SIGTERM, SIGINT])
        func signalEndsLoop(signal ending: Int32) throws {
            // A script's `cmd &` starts us with SIGINT ignored; the session must still react.
            let previous = signal(ending, SIG_IGN)
            defer { signal(ending, previous) }
            let mount = try TestMount(handleSignals: true)
            #expect(try mount.tool("ls", mount.path("")).status == 0)
            try #require(waitForHandler(of: ending), "libfuse's handler was not installed")
            kill(getpid(), ending)
            #expect(mount.waitForLoopEnd(), "\(mount.loopFailure ?? "timeout")")
            #expect(!isMountPoint(mount.mountPoint))
            #expect(currentHandler(of: ending) == nil, "the handler was not removed after the loop")
            mount.removeDirectories()
        }

        @Test("a session mounts once; run() before mount() throws")
        func misuseThrows() throws {
            let base = try makeTemporaryDirectory()
            defer { rmdir(base) }
            let session = FuseSession(filesystem: InMemoryFilesystem(), options: MountOptions(mountPoint: base))
            #expect(throws: FuseSessionError.notMounted) { try session.run() }
            session.unmount()
            #expect(throws: FuseSessionError.alreadyStarted) { try session.mount() }
        }

        @Test("mount() refuses a non-empty directory with the mount point's message")
        func mountChecksMountPoint() throws {
            let base = try makeTemporaryDirectory()
            defer { rmdir(base) }
            let file = base + "/mail.txt"
            #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
            defer { unlink(file) }
            let session = FuseSession(filesystem: InMemoryFilesystem(), options: MountOptions(mountPoint: base))
            #expect(throws: MountPointError.notEmpty(path: base)) { try session.mount() }
        }
    }
}

/// A path is a mount point when it is on another device than its parent.
func isMountPoint(_ path: String) -> Bool {
    var own = stat()
    var parent = stat()
    guard stat(path, &own) == 0, stat(path + "/..", &parent) == 0 else { return true }
    return own.st_dev != parent.st_dev
}

/// The handler address for `signal`, nil while it is SIG_DFL.
func currentHandler(of signal: Int32) -> UnsafeRawPointer? {
    var action = sigaction()
    sigaction(signal, nil, &action)
    return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UnsafeRawPointer?.self)
}

/// run() installs the handlers on its own thread, shortly after mount() returned.
func waitForHandler(of signal: Int32) -> Bool {
    let ignored = unsafeBitCast(SIG_IGN, to: UnsafeRawPointer?.self)
    for _ in 0..<200 {
        let handler = currentHandler(of: signal)
        if handler != nil && handler != ignored { return true }
        usleep(10_000)
    }
    return false
}
