import FUSE
import Foundation
import Synchronization
import Testing

/// An `InMemoryFilesystem` mounted in a fresh temporary directory, its loop on a background
/// thread, driven by real tools. Mounting failures throw, so a test that cannot mount fails.
final class TestMount: Sendable {
    let filesystem = InMemoryFilesystem()
    let session: FuseSession
    let base: String
    let mountPoint: String
    private let loopEnded = DispatchSemaphore(value: 0)
    private let loopError = Mutex<String?>(nil)

    init(handleSignals: Bool = false, timeouts: Double = 60, keepsCPUsAwakeInBursts: Bool = true) throws {
        base = try makeTemporaryDirectory()
        mountPoint = base + "/mnt"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        session = FuseSession(filesystem: filesystem, options: MountOptions(
            mountPoint: mountPoint, entryTimeout: timeouts, attributeTimeout: timeouts,
            negativeEntryTimeout: timeouts, keepsCPUsAwakeInBursts: keepsCPUsAwakeInBursts, handleSignals: handleSignals))
        try session.mount()
        let thread = Thread { [self] in serve() }
        thread.name = "test-fuse-loop"
        thread.start()
    }

    private func serve() {
        do {
            try session.run()
        } catch {
            loopError.withLock { $0 = "\(error)" }
        }
        loopEnded.signal()
    }

    func path(_ relative: String) -> String {
        relative.isEmpty ? mountPoint : mountPoint + "/" + relative
    }

    /// Runs a tool (with a 20 s `timeout`, so a hung mount fails instead of hanging the suite).
    func tool(_ name: String, _ arguments: String...) throws -> ToolResult {
        try runTool(name, arguments)
    }

    /// True when the loop ended (and run() returned without error) within `seconds`.
    func waitForLoopEnd(seconds: Double = 10) -> Bool {
        guard loopEnded.wait(timeout: .now() + seconds) == .success else { return false }
        loopEnded.signal()  // later waits see it too
        return loopError.withLock { $0 } == nil
    }

    var loopFailure: String? { loopError.withLock { $0 } }

    /// Ends the mount with `fusermount3 -u` (what a user types), then removes the directories.
    func finish() throws {
        try unmountWithFusermount()
        removeDirectories()
    }

    func unmountWithFusermount() throws {
        // close(2) returns before the kernel sends RELEASE, so a file a test just closed can
        // keep the mount busy for a moment: retry briefly, as a user would.
        var result = try runTool("fusermount3", ["-u", mountPoint])
        for _ in 0..<20 where result.status != 0 && result.standardError.contains("busy") {
            Thread.sleep(forTimeInterval: 0.1)
            result = try runTool("fusermount3", ["-u", mountPoint])
        }
        #expect(result.status == 0, "fusermount3 -u: \(result.standardError)")
        #expect(waitForLoopEnd(), "the loop did not end after fusermount3 -u: \(loopFailure ?? "timeout")")
    }

    /// Only after the loop ended: never delete through a live mount.
    func removeDirectories() {
        rmdir(mountPoint)
        rmdir(base)
    }
}

struct ToolResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
    var lines: [String] { standardOutput.split(separator: "\n").map(String.init) }
}

func runTool(_ name: String, _ arguments: [String]) throws -> ToolResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    // SIGKILL: a tool inherits the signal mask of the thread that starts it, and the
    // threads Swift Testing and Dispatch run tests on block SIGTERM, timeout's default.
    process.arguments = ["-s", "KILL", "20", name] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Both pipes are drained at once: a tool that fills one (64 KiB) while the test reads
    // the other to its end would wait until `timeout` kills it. A thread of its own, not
    // Dispatch's pool: in a full parallel run that pool can be busy for seconds.
    let errorData = Mutex(Data())
    let errorsRead = DispatchSemaphore(value: 0)
    let errorHandle = errors.fileHandleForReading
    Thread {
        errorData.withLock { $0 = errorHandle.readDataToEndOfFile() }
        errorsRead.signal()
    }.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    errorsRead.wait()
    process.waitUntilExit()
    return ToolResult(status: process.terminationStatus,
                      standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: errorData.withLock { String(decoding: $0, as: UTF8.self) })
}

func makeTemporaryDirectory() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/mailfs-fuse-XXXXXX").utf8CString)
    guard let created = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
        throw FSError(errno)
    }
    return String(cString: created)
}

/// The errno of a syscall made on a path in the mount (0 when it succeeded).
func errnoOf(_ call: () -> Int32) -> Int32 {
    errno = 0
    return call() < 0 ? errno : 0
}

/// All mounted tests run one at a time: one of them owns the process's signal handlers.
@Suite(.serialized) struct MountedTests {}
