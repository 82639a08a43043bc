import Foundation
import TestSupport
import Testing

/// A mount of a real IMAP account, on every server of the matrix: it fills in as the
/// sync runs, and what another client changes while mounted appears.
@Suite("Mounted IMAP account", .serialized)
struct SyncedMountTests {
    typealias Server = WriteBack

    @Test("an IMAP account syncs into the mount, .status follows; another client's new mail and deletion show on echo sync, INBOX mail by IDLE",
          arguments: IMAPServerKind.allCases)
    func liveSync(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let synced = Letter.many("Synced \(kind.rawValue)", 3)
            let (mount, folder) = try await MountedMailfs.seededFolder(
                "Live", holding: synced, account: WriteBackAccount(user: "bob", kind: kind))
            #expect(try await mount.sh("ls").lines.contains("bob"))
            let status = mount.text("bob/.status")
            #expect(status.contains("online: yes") && !status.contains("last_sync: never"), "\(status)")
            #expect(try await mount.listing("bob/\(folder)").count == synced.count, "the initial sync, nothing more")

            let arrived = Letter("Fresh arrival")
            try await Server.append([arrived], user: "bob", mailbox: folder, on: kind)
            #expect(try await mount.sh("echo sync > bob/.control").status == 0)
            try await expect(mount.waitForFiles([arrived.fileName], in: "bob/\(folder)", seconds: 15),
                             orExplain: { "\(mount.text("bob/.log"))" })
            #expect(try await mount.sh("cat 'bob/\(folder)/\(arrived.fileName)'").output.hasSuffix("write-back test\r\n"))
            #expect(mount.text("bob/.log").contains("sync finished"))

            let expunged = try await Server.seed(["expunge", "--user", "bob", "--mailbox", folder, "--message-id", synced[0].messageID],
                                                 on: kind)
            #expect(expunged.status == 0, "\(expunged.output)")
            #expect(try await mount.sh("echo sync > bob/.control").status == 0)
            try await expect(Poll.until(seconds: 15) { try await !mount.listing("bob/\(folder)").contains(synced[0].fileName) },
                             orExplain: { "\(mount.text("bob/.log"))" })
            #expect(Set(try await mount.listing("bob/\(folder)")) == Set((synced.dropFirst() + [arrived]).map(\.fileName)))

            // IDLE: new mail in the INBOX appears without any trigger.
            #expect(try await Poll.until(seconds: 15) { mount.status("idle", of: "bob") == "active" }, "\(mount.text("bob/.status"))")
            let pushed = Letter("Pushed")
            try await Server.append([pushed], user: "bob", mailbox: "INBOX", on: kind)
            let appended = Date()
            try await expect(mount.waitForFiles([pushed.fileName], in: "bob/inbox", seconds: 15),
                             orExplain: { "\(mount.text("bob/.log"))" })
            print("IDLE push \(kind.rawValue): \(String(format: "%.1f", Date().timeIntervalSince(appended))) s")
            let password = try TestServers.env("BOB_PASSWORD")
            #expect(try await mount.sh("grep -r -l -- '\(password)' .status bob/.status bob/.log || true").output.isEmpty)
        }
    }
}
