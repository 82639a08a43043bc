import Foundation
import TestSupport
import Testing

/// A mount of a real IMAP account (the Dovecot ./test starts): it fills in as the sync
/// runs and new mail appears while mounted.
@Suite("Mounted IMAP account", .serialized)
struct SyncedMountTests {
    static func env(_ name: String) throws -> String {
        try TestServerEnvironment.value(name)
    }

    static func seed(_ arguments: [String]) async throws -> Shell.Result {
        try await Shell.run(try env("SEED"), arguments)
    }

    @Test("an IMAP account syncs into the mount, .status follows, and new mail appears on echo sync")
    func liveSync() async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs()
            let folder = "Live-\(UUID().uuidString.prefix(8))"
            #expect(try await Self.seed(["create-mailbox", "--user", "bob", folder]).status == 0)
            try mount.writeConfig("""
                [accounts.bob]
                address = "\(try Self.env("BOB_EMAIL"))"
                username = "bob"
                password_command = "printenv MAILFS_TEST_BOB_PASSWORD"
                ca_file = "\(try Self.env("CA_FILE"))"

                [accounts.bob.imap]
                host = "127.0.0.1"
                port = \(try Self.env("IMAPS_PORT"))
                """)
            try await mount.start()
            #expect(try await mount.sh("ls").lines.contains("bob"))
            #expect(try await Poll.until(seconds: 30) { try await mount.sh("cat bob/.status").output.contains("phase: idle") })
            let status = try await mount.sh("cat bob/.status").output
            #expect(status.contains("online: yes") && !status.contains("last_sync: never"), "\(status)")
            // Listings follow the store within the watcher's 250 ms poll; .status is live.
            #expect(try await Poll.until(seconds: 5) { try await mount.sh("ls -d bob/\(folder)").status == 0 })

            let message = mount.root.appendingPathComponent("new.eml")
            try "From: Ann <ann@example.test>\r\nTo: bob@example.test\r\nSubject: Fresh arrival\r\nDate: Sat, 21 Nov 2026 12:00:00 +0000\r\nMessage-ID: <fresh-\(folder)@test>\r\n\r\nhello\r\n"
                .write(to: message, atomically: true, encoding: .utf8)
            #expect(try await Self.seed(["append", "--user", "bob", "--mailbox", folder, message.path]).status == 0)
            #expect(try await mount.sh("ls bob/\(folder) | wc -l").lines == ["0"])
            #expect(try await mount.sh("echo sync > bob/.control").status == 0)
            #expect(try await Poll.until(seconds: 15) {
                try await mount.sh("ls bob/\(folder)").lines == ["2026-11-21 1200 Ann - Fresh arrival.eml"]
            })
            #expect(try await mount.sh("cat 'bob/\(folder)/2026-11-21 1200 Ann - Fresh arrival.eml'").output.hasSuffix("hello\r\n"))
            #expect(try await mount.sh("cat bob/.log").output.contains("sync finished"))
            // IDLE: new mail in the INBOX appears without any trigger.
            #expect(try await Poll.until(seconds: 15) { try await mount.sh("cat bob/.status").output.contains("idle: active") })
            let pushed = mount.root.appendingPathComponent("pushed.eml")
            try "From: Ann <ann@example.test>\r\nTo: bob@example.test\r\nSubject: Pushed \(folder)\r\nDate: Sat, 21 Nov 2026 12:30:00 +0000\r\nMessage-ID: <pushed-\(folder)@test>\r\n\r\nidle\r\n"
                .write(to: pushed, atomically: true, encoding: .utf8)
            #expect(try await Self.seed(["append", "--user", "bob", "--mailbox", "INBOX", pushed.path]).status == 0)
            #expect(try await Poll.until(seconds: 15) {
                try await mount.sh("ls bob/inbox").lines.contains("2026-11-21 1230 Ann - Pushed \(folder).eml")
            })
            let password = try Self.env("BOB_PASSWORD")
            #expect(try await mount.sh("grep -r -l -- '\(password)' .status bob/.status bob/.log || true").output.isEmpty)
        }
    }

}
