import Foundation
import TestSupport
import Testing

/// RFC 3501 §7.1: the text of an `[ALERT]` MUST be shown to the user. Cyrus sends the
/// first line of `{configdirectory}/msg/motd` as `* OK [ALERT] …` right after its greeting,
/// on every connection, as a host announcing maintenance would.
@Suite("Server alerts", .serialized)
struct ServerAlertMountTests {
    @Test("Cyrus's message of the day reaches .status (server_alert) and .log once, made printable")
    func cyrusAlert() async throws {
        try await IMAPServerKind.cyrus.shared {
            let notice = "Maintenance tonight at 22:00 \(UUID().uuidString.prefix(8))"
            let motd = URL(fileURLWithPath: try TestServers.env("STATE_DIR"))
                .appendingPathComponent("cyrus/config/msg/motd")
            try FileManager.default.createDirectory(at: motd.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "\(notice)\u{7}\n".write(to: motd, atomically: true, encoding: .utf8)
            // Cyrus runs as its own user: the modes are set, not left to the test process's umask.
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: motd.deletingLastPathComponent().path)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: motd.path)
            defer { try? FileManager.default.removeItem(at: motd) }

            let mount = try MountedMailfs.configured([WriteBackAccount(kind: .cyrus)])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"), "\(mount.text("alice/.status"))")
            try await expect(Poll.until(seconds: 20) { mount.status("server_alert", of: "alice") == notice + "\\x07" },
                             orExplain: { "server_alert: \(mount.status("server_alert", of: "alice") ?? "(no key)"); "
                                 + "\(mount.text("alice/.log"))" })
            let logged = mount.text("alice/.log").split(separator: "\n").filter { $0.contains("server alert: \(notice)\\x07") }
            #expect(logged.count == 1, "one .log line however many connections logged in: \(logged)")
        }
    }
}
