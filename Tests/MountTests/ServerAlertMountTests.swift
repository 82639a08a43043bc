import Foundation
import TestSupport
import Testing

/// RFC 3501 §7.1: the text of an `[ALERT]` MUST be shown to the user. Cyrus sends the
/// contents of `{configdirectory}/msg/motd` as `* OK [ALERT] …` after a login, as a host
/// announcing maintenance would. An imapd process reads the file once, at its first
/// session, so the test restarts Cyrus around it (alone on that server).
@Suite("Server alerts", .serialized)
struct ServerAlertMountTests {
    @Test("Cyrus's message of the day reaches .status (server_alert) and .log once, made printable")
    func cyrusAlert() async throws {
        try await IMAPServerKind.cyrus.exclusive {
            let notice = "Maintenance tonight at 22:00 \(UUID().uuidString.prefix(8))"
            let motd = URL(fileURLWithPath: try SyncedMountTests.env("STATE_DIR"))
                .appendingPathComponent("cyrus/config/msg/motd")
            try FileManager.default.createDirectory(at: motd.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "\(notice)\u{7}\n".write(to: motd, atomically: true, encoding: .utf8)
            try await restartCyrus()

            let mount = try MountedMailfs.configured([WriteBackAccount(kind: .cyrus)])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"), "\(mount.text("alice/.status"))")
            try await expect(Poll.until(seconds: 20) { mount.status("server_alert", of: "alice") == notice },
                             orExplain: { "server_alert: \(mount.status("server_alert", of: "alice") ?? "(no key)"); "
                                 + "\(mount.text("alice/.log"))" })
            let logged = mount.text("alice/.log").split(separator: "\n").filter { $0.contains("server alert: \(notice)") }
            #expect(logged.count == 1, "one .log line however many connections logged in: \(logged)")
            await mount.stop()
            try FileManager.default.removeItem(at: motd)
            try await restartCyrus()
        }
    }

    private func restartCyrus() async throws {
        #expect(try await IMAPServerKind.cyrus.control("stop") == 0)
        #expect(try await IMAPServerKind.cyrus.control("start") == 0)
    }
}
