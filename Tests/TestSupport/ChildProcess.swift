import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs programs for tests with posix_spawn and an explicit waitpid, so a child is always
/// reaped by the test that started it (Foundation's Process reaps through a process-wide
/// SIGCHLD handler, which tests that mount FUSE and send signals can starve).
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private let outputFD: Int32
    private var exitStatus: Int32?

    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var lines: [String] { output.split(separator: "\n").map(String.init) }
    }

    /// Starts `executable` with stdout and stderr on one pipe (read it with `readAll`), or
    /// on /dev/null when `captureOutput` is false.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                captureOutput: Bool = true) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SpawnError(reason: "pipe: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Nothing else the test process holds reaches the child (the pipe's ends included):
        // Foundation opens files without O_CLOEXEC, and a file another test had open in
        // its FUSE mount at this moment would stay open in the child, keeping that mount
        // busy for `fusermount3 -u` for as long as the child lives.
        if let closeFrom = Self.addCloseFrom {
            _ = closeFrom(&actions, 3)
        } else {
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        }
        // Signals the test runner ignores or blocks must not leak into the child.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, env)
        close(fds[1])
        guard result == 0 else {
            close(fds[0])
            throw SpawnError(reason: "posix_spawn \(executable): \(result)")
        }
        pid = child
        outputFD = fds[0]
    }

    deinit { close(outputFD) }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run
    /// time: Swift's Glibc module does not declare it.
    private static let addCloseFrom: AddCloseFrom? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Everything the child wrote, until it (and any child holding the pipe) closes it.
    public func readAll() -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(outputFD, &buffer, buffer.count)
            if count > 0 { data += buffer[0..<count]; continue }
            if count < 0 && errno == EINTR { continue }
            break
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits for the child to end and returns its exit status (128+signal when killed).
    @discardableResult
    public func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = code
        return code
    }

    /// Whether the child is still running (reaps it if it has ended).
    public var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result == 0 }
        exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return false
    }

    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// Runs to completion and returns the status and output. The waiting happens on a
    /// thread of its own: Swift's cooperative pool has one thread per core, and the code
    /// under test (sync, sending) runs on it in this same process, so a test that held a
    /// pool thread for a slow child would stall every other test's async work.
    public static func run(_ executable: String, _ arguments: [String],
                           environment: [String: String]? = nil) async throws -> Result {
        try await offPool {
            let child = try ChildProcess(executable, arguments, environment: environment)
            let output = child.readAll()
            return Result(status: child.wait(), output: output)
        }
    }

    /// Waits for the child to end, off the cooperative pool (see `run`).
    @discardableResult
    public func terminated() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.wait()) }.start()
        }
    }

    /// Runs blocking `work` on a new thread and resumes with its result.
    public static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
        }
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }
}
