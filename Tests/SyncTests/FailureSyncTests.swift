import Foundation
import Store
import Sync
import TestSupport
import Testing

/// How sync fails: bad certificates, missing STARTTLS, wrong passwords, dying servers.
@Suite("Sync failures against real servers", .serialized)
struct FailureSyncTests {
    @Test("a self-signed server certificate is refused, and .status says which setting trusts a private CA")
    func selfSigned() async throws {
        try await SharedServers.shared {
            let caFile = try TestServers.env("CA_FILE")
            let withCA = try SyncHarness(try TestServers.accountTOML(name: "bad", user: "alice", port: "IMAPS_SELFSIGNED_PORT"))
            await withCA.sync("bad")
            #expect(withCA.state("bad").phase == .error)
            #expect(withCA.state("bad").lastError == "the server's certificate is not trusted (signed by an unknown CA, "
                    + "expired, or for another host name): neither the system's CAs nor ca_file (\(caFile)) vouch for 127.0.0.1")
            // Without ca_file, the setting to add is named, with the account it goes under.
            let withoutCA = try SyncHarness(try TestServers.accountTOML(name: "bad", user: "alice", port: "IMAPS_SELFSIGNED_PORT")
                .replacingOccurrences(of: "ca_file = \"\(caFile)\"\n", with: ""))
            await withoutCA.sync("bad")
            let reason = withoutCA.state("bad").lastError ?? ""
            #expect(reason.hasPrefix("the server's certificate is not trusted")
                    && reason.hasSuffix("add its certificate with ca_file = \"/path/to/ca.pem\" under [accounts.bad]"), "\(reason)")
        }
    }

    @Test("STARTTLS configured but not offered is refused before any login")
    func startTLSNotOffered() async throws {
        try await SharedServers.shared {
            let harness = try SyncHarness(try TestServers.accountTOML(
                name: "plain", user: "alice", port: "IMAP_PLAIN_PORT", security: "starttls"))
            await harness.sync("plain")
            #expect(harness.state("plain").phase == .error)
            #expect(harness.state("plain").lastError?.contains("STARTTLS") == true)
        }
    }

    @Test("a wrong password and an unreachable server are clear errors; the other account still syncs")
    func wrongPassword() async throws {
        try await SharedServers.shared {
            setenv("MAILFS_TEST_WRONG_PASSWORD", "not-the-password", 1)
            // Port 9 (discard) has no listener on loopback: connections are refused at once.
            let unreachable = try TestServers.accountTOML(name: "down", user: "carol")
                .replacingOccurrences(of: "port = \(try TestServers.env("IMAPS_PORT"))", with: "port = 9")
            let toml = try TestServers.accountTOML(name: "wrong", user: "alice", passwordVariable: "MAILFS_TEST_WRONG_PASSWORD")
                + TestServers.accountTOML(name: "right", user: "bob") + unreachable
            let harness = try SyncHarness(toml)
            harness.coordinator.start()
            defer { harness.coordinator.stop() }
            _ = try await Poll.until(seconds: 30, every: .milliseconds(100)) {
                harness.state("right").phase == .idle && harness.state("wrong").phase == .error
                    && harness.state("down").phase == .error
            }
            #expect(harness.state("wrong").phase == .error)
            #expect(harness.state("wrong").lastError?.contains("authentication failed") == true, "\(harness.state("wrong"))")
            // Independence: the working account synced, untouched by the others' failures. (Other
            // tests change bob's mailboxes meanwhile, so a folder may fail for its own reasons.)
            let right = harness.state("right")
            #expect(right.phase == .idle, "\(right)\n\(harness.log("right"))")
            #expect(!(right.lastError ?? "").contains("authentication") && !(right.lastError ?? "").contains("connect"),
                    "\(right.lastError ?? "")")
            #expect(harness.state("down").phase == .error)
            #expect(harness.state("down").lastError?.contains("connect") == true, "\(harness.state("down"))")
            #expect(try harness.store.account(named: "right")?.lastSyncDate != nil)
        }
    }

    @Test("a server killed mid-sync resumes from the checkpoint with no duplicate and no loss")
    func killedMidSync() async throws {
        try await SharedServers.exclusive {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-kill-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let folder = "Kill-\(UUID().uuidString.prefix(8))"
            try await TestServers.seed(["create-mailbox", "--user", "carol", folder])
            // Ten batches: the kill must land while the sync still has work, and what is
            // left after the first checkpoint takes the sync a second or more, far longer
            // than the kill takes (three batches of large messages were once synced whole
            // before it landed).
            let count = 2_000
            for n in 0..<count {
                _ = try TestServers.messageFile(id: "\(folder)-\(n)@test", subject: "Kill \(n)",
                                                body: String(repeating: "payload \(n) ", count: 2_000), in: work)
            }
            try await TestServers.seed(["append", "--user", "carol", "--mailbox", folder, work.path])
            let harness = try SyncHarness(try TestServers.accountTOML(name: "carol", user: "carol"))
            let sync = Task { await harness.sync("carol") }
            // Wait for the first checkpoint, then take the server away.
            _ = try await Poll.until(seconds: 60, every: .milliseconds(20)) {
                guard let id = try harness.store.account(named: "carol")?.id,
                      let record = try harness.store.folders(accountId: id).first(where: { $0.path == folder })
                else { return false }
                return record.lastSyncedUID > 0
            }
            #expect(try await TestServers.control("kill", "dovecot") == 0, "ctl.sh kill dovecot")
            await sync.value
            #expect(harness.state("carol").phase == .error)
            let partial = try harness.messages("carol", folder).count
            #expect(partial < count, "the kill landed after the sync ended")
            #expect(try await TestServers.control("start", "dovecot") == 0, "ctl.sh start dovecot")
            await harness.sync("carol")
            #expect(harness.state("carol").lastError == nil, "\(harness.log("carol"))")
            try await harness.expectAgreement("carol", user: "carol", folder: folder)
            #expect(try harness.messages("carol", folder).count == count)
        }
    }
}
