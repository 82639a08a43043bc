import Foundation
import TestSupport
import Testing

/// A real `mailfs mount` process on a temp dir, with its own store and no config, driven
/// by real tools. The binary is the one `./test` built ($MAILFS_BIN, else .build/debug).
final class MountedMailfs {
    let root: URL
    let mountPoint: URL
    let dataDir: URL
    let environment: [String: String]
    private(set) var process: ChildProcess?

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: String {
        ProcessInfo.processInfo.environment["MAILFS_BIN"]
            ?? repository.appendingPathComponent(".build/debug/mailfs").path
    }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-mount-\(UUID().uuidString)")
        mountPoint = root.appendingPathComponent("mnt")
        dataDir = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        env["XDG_DATA_HOME"] = root.appendingPathComponent("xdg-data").path
        environment = env
    }

    /// A test that ends without `await stop()`: deinit cannot await, and must not hold a
    /// cooperative thread for the seconds an unmount may take, so it detaches the mount
    /// (`fusermount3 -uz`, at once) and asks the process to end; a thread of its own waits
    /// for it. Nothing is left mounted even if the test process exits first.
    deinit {
        let (process, mountPoint, root) = (process, mountPoint, root)
        guard let process, process.isRunning else {
            try? FileManager.default.removeItem(at: root)
            return
        }
        process.signal(SIGTERM)
        _ = try? ChildProcess("/bin/fusermount3", ["-uz", mountPoint.path]).wait()
        Thread {
            Self.unmount(process, at: mountPoint)
            try? FileManager.default.removeItem(at: root)
        }.start()
    }

    /// `mailfs import ACCOUNT PATH` into this mount's store.
    @discardableResult
    func importMail(_ account: String, from path: URL, address: String? = nil) async throws -> String {
        let result = try await mailfs(["import", account, path.path, "--data-dir", dataDir.path]
                                + (address.map { ["--address", $0] } ?? []))
        #expect(result.status == 0, "import failed: \(result.output)")
        return result.output
    }

    /// A mount (not started) of `accounts`.
    static func configured(_ accounts: [some MountAccount]) throws -> MountedMailfs {
        let mount = try MountedMailfs()
        try mount.configure(accounts)
        return mount
    }

    /// Writes (or rewrites, between two mounts of the same store) the config of `accounts`.
    func configure(_ accounts: [some MountAccount]) throws {
        try writeConfig(accounts.map { try $0.toml }.joined(separator: "\n"))
    }

    /// Writes (or rewrites, between two mounts of the same store) the config file.
    func writeConfig(_ toml: String) throws {
        let configDir = root.appendingPathComponent("config/mailfs")
        try FileManager.default.createDirectory(at: configDir, withIntermediateDirectories: true)
        try toml.write(to: configDir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    }

    func mailfs(_ arguments: [String]) async throws -> Shell.Result {
        try await Shell.run(Self.binary, arguments, environment: environment)
    }

    /// Starts the mount and waits (at most 20 s) until the root `.status` is readable.
    /// `extraArguments` are for this run of the mount process only (a crash point, shorter
    /// kernel cache timeouts).
    func start(extraArguments: [String] = []) async throws {
        let logFile = root.appendingPathComponent("mount.log").path
        let process = try ChildProcess("/bin/sh", ["-c", "m=$1 d=$2 log=$3; shift 3; exec \"$0\" mount \"$m\" --data-dir \"$d\" \"$@\" >>\"$log\" 2>&1",
                                                   Self.binary, mountPoint.path, dataDir.path, logFile] + extraArguments,
                                       environment: environment, captureOutput: false)
        self.process = process
        // Poll.until checks once more after the deadline: a full run's CPU-bound suites can
        // keep this task off both pool threads for the whole wait (two mount tests once
        // failed that way together, the mounts long ready).
        let ready = { self.isMounted && FileManager.default.fileExists(atPath: self.path(".status")) }
        _ = try await Poll.until(seconds: 20, every: .milliseconds(50)) { ready() || !process.isRunning }
        if ready() { return }
        let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        throw MountError(message: "mailfs did not mount: \(log)")
    }

    /// Unmounts with fusermount3 -u and waits for the process to end.
    func stop() async {
        let (process, mountPoint) = (process, mountPoint)
        _ = try? await ChildProcess.offPool { Self.unmount(process, at: mountPoint) }
    }

    /// Blocking: callers run it off the cooperative pool.
    private static func unmount(_ process: ChildProcess?, at mountPoint: URL) {
        guard let process, process.isRunning else { return }
        func waitForExit(seconds: Double) {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        }
        _ = try? ChildProcess("/bin/fusermount3", ["-u", mountPoint.path]).wait()
        waitForExit(seconds: 10)
        if process.isRunning {
            process.signal(SIGKILL)
            waitForExit(seconds: 5)
        }
        _ = try? ChildProcess("/bin/fusermount3", ["-uz", mountPoint.path]).wait()
    }

    /// Waits up to `seconds` for the mount process to end.
    func waitForExit(seconds: Double) async {
        let deadline = Date().addingTimeInterval(seconds)
        while process?.isRunning == true && Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
    }

    /// What the mount process printed (banner, errors).
    var log: String {
        (try? String(contentsOfFile: root.appendingPathComponent("mount.log").path, encoding: .utf8)) ?? ""
    }

    var isMounted: Bool {
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        return mounts.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first == Substring(mountPoint.path) }
    }

    func path(_ relative: String) -> String {
        mountPoint.appendingPathComponent(relative).path
    }

    /// Runs a shell command line inside the mount point (`cd $MNT && ...`).
    func sh(_ command: String) async throws -> Shell.Result {
        try await Shell.run("/bin/sh", ["-c", "cd \"$MNT\" && " + command],
                      environment: environment.merging(["MNT": mountPoint.path, "LC_ALL": "C.UTF-8"]) { $1 })
    }

    struct MountError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// An account of a test config: its `[accounts.NAME]` tables.
protocol MountAccount {
    var toml: String { get throws }
}

enum Shell {
    typealias Result = ChildProcess.Result

    static func run(_ executable: String, _ arguments: [String],
                    environment: [String: String]? = nil) async throws -> Result {
        try await ChildProcess.run(executable, arguments, environment: environment)
    }
}

/// `#expect(condition, comment)` for a comment that needs awaiting (what the server holds,
/// a listing): `#expect`'s comment cannot await, and this one is built only on failure.
func expect(_ condition: Bool, orExplain comment: () async -> String,
            sourceLocation: SourceLocation = #_sourceLocation) async {
    guard !condition else { return }
    Issue.record(Comment(rawValue: await comment()), sourceLocation: sourceLocation)
}
