import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 48: mailfs as a systemd user service. The unit's ExecStart is run as systemd runs
/// it (no terminal, NOTIFY_SOCKET, JOURNAL_STREAM), with the real binary and a real FUSE
/// mount with no config; nothing here needs a running systemd.
@Suite("Running as a systemd user service", .serialized)
struct ServiceMountTests {
    /// A home of its own: the unit mounts `%h/Mail`, and config and store default under it.
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-service-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        ["HOME": home.path, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
    }

    /// `mailfs install-service` into this home; the unit's text.
    func installedUnit() async throws -> String {
        let result = try await ChildProcess.run(MountedMailfs.binary, ["install-service"], environment: environment)
        #expect(result.status == 0 && result.output.contains("systemctl --user enable --now mailfs"), "\(result.output)")
        return try String(contentsOf: home.appendingPathComponent(".config/systemd/user/mailfs.service"), encoding: .utf8)
    }

    @Test("install-service writes the repository's unit with this binary's path; systemd-analyze verify accepts it",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"),
                   "systemd-analyze is not installed: the unit's syntax cannot be checked here"))
    func installedUnitVerifies() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let unit = try await installedUnit()
        let binary = URL(fileURLWithPath: MountedMailfs.binary).resolvingSymlinksInPath().path
        let repository = try String(contentsOf: MountedMailfs.repository.appendingPathComponent("contrib/systemd/mailfs.service"),
                                    encoding: .utf8)
        #expect(unit == repository.replacingOccurrences(of: "ExecStart=/usr/local/bin/mailfs ",
                                                        with: "ExecStart=\(binary) "), "\(unit)")
        let runtime = home.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let verify = try await ChildProcess.run(
            "/usr/bin/systemd-analyze", ["verify", "--user", home.appendingPathComponent(".config/systemd/user/mailfs.service").path],
            environment: environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 })
        #expect(verify.status == 0, "\(verify.output)")
    }

    @Test("the unit's ExecStart as systemd runs it: READY=1 once the mount answers, SIGTERM unmounts with STOPPING=1 and exit 0, log lines carry priorities")
    func runsUnderSystemd() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let unit = try await installedUnit()
        let command = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
            .dropFirst("ExecStart=".count).replacingOccurrences(of: "%h", with: home.path)
            .split(separator: " ").map(String.init)
        let notifications = try NotifySocket(path: home.appendingPathComponent("notify").path)
        let mount = home.appendingPathComponent("Mail")
        let stderrPath = home.appendingPathComponent("journal").path
        #expect(FileManager.default.createFile(atPath: stderrPath, contents: nil))
        var status = stat()
        try #require(stat(stderrPath, &status) == 0)
        let process = try ChildProcess("/bin/sh", ["-c", "err=$1; shift; exec \"$@\" >>\"$err\" 2>>\"$err\"", "sh", stderrPath] + command,
                                       environment: environment.merging([
                                           "NOTIFY_SOCKET": notifications.path,
                                           "JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino)",
                                       ]) { $1 }, captureOutput: false)
        let unmounted = { (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8))?.contains(" \(mount.path) ") == false }
        defer { if !unmounted() { _ = try? ChildProcess("/bin/fusermount3", ["-uz", mount.path]).wait() } }

        let ready = try await notifications.wait(for: "READY=1", seconds: 30)
        #expect(ready, "no READY=1: \(notifications.received) \(log(stderrPath))")
        #expect(FileManager.default.fileExists(atPath: mount.appendingPathComponent(".status").path), "READY=1 before the mount answered")

        process.signal(SIGTERM)
        let exit = await process.terminated()
        #expect(exit == 0, "exit status \(exit): \(log(stderrPath))")
        #expect(try await notifications.wait(for: "STOPPING=1", seconds: 5), "\(notifications.received)")
        #expect(unmounted(), "still mounted after SIGTERM")
        let lines = log(stderrPath).split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("<6>mailfs: unmounted") }, "\(lines)")
        #expect(lines.allSatisfy { $0.range(of: #"^<[0-7]>"#, options: .regularExpression) != nil }, "a line without a priority: \(lines)")
    }

    @Test("a stop with a message still queued in outbox/ exits 75 (the unit's SuccessExitStatus) and says how many")
    func stopWithQueuedMail() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        // Servers that refuse every connection (port 9 has no listener on loopback).
        let config = home.appendingPathComponent(".config/mailfs/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try """
            [accounts.work]
            address = "me@example.test"
            username = "me"
            password_command = "echo secret"

            [accounts.work.imap]
            host = "127.0.0.1"
            port = 9

            [accounts.work.smtp]
            host = "127.0.0.1"
            port = 9

            """.write(to: config, atomically: true, encoding: .utf8)
        let mount = home.appendingPathComponent("Mail")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        defer { _ = try? ChildProcess("/bin/fusermount3", ["-uz", mount.path]).wait() }
        let process = try ChildProcess(MountedMailfs.binary, ["mount", mount.path], environment: environment)
        let outbox = mount.appendingPathComponent("work/outbox")
        try #require(try await Poll.until(seconds: 20) { FileManager.default.fileExists(atPath: outbox.path) })
        try TestMessage(from: "Me <me@example.test>", to: "Bob <bob@example.test>", subject: "Left queued",
                        date: "Mon, 07 Dec 2026 10:00:00 +0000", messageID: "queued-\(UUID().uuidString)@example.test",
                        body: "hi\r\n").write(to: outbox.appendingPathComponent("left.eml"))
        process.signal(SIGTERM)
        let exit = await process.terminated()
        let output = process.readAll()
        #expect(exit == 75, "\(output)")
        #expect(output.contains("1 message(s) still queued in outbox/: sent at the next start"), "\(output)")
    }

    private func log(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
}

/// The NOTIFY_SOCKET end systemd holds: a unix datagram socket the test reads.
final class NotifySocket: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private(set) var received: [String] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw BindFailed(path: path, errno: errno) }
    }

    struct BindFailed: Error {
        var path: String
        var errno: Int32
    }

    deinit { close(fd) }

    /// Reads datagrams until one has the line `state`, for `seconds` at most.
    func wait(for state: String, seconds: Double) async throws -> Bool {
        try await Poll.until(seconds: seconds, every: .milliseconds(20)) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while case let count = recv(fd, &buffer, buffer.count, 0), count > 0 {
                received.append(String(decoding: buffer[..<count], as: UTF8.self))
            }
            return received.contains { $0.split(separator: "\n").contains { $0 == state } }
        }
    }
}
