import Foundation
import Store
import Sync
import TestSupport
import Testing

/// Errors users can fix are shown at once and never retried in a loop; transient ones
/// are retried with the next attempt shown; a server that comes back is synced within a
/// minute, even over connections its restart killed.
@Suite("Sync errors and recovery against real servers", .serialized)
struct RecoverySyncTests {
    /// An account config whose connection retries wait `seconds` (×1, ×3, ×9).
    static func toml(name: String, user: String, port: String = "IMAPS_PORT", security: String = "tls",
                     retrySeconds: Int, extra: String = "") throws -> String {
        try TestServers.accountTOML(name: name, user: user, port: port, security: security, extra: extra)
            .replacingOccurrences(of: "retry_delay_seconds = 0", with: "retry_delay_seconds = \(retrySeconds)")
    }

    @Test("an untrusted certificate and a missing STARTTLS are permanent: an error at the first attempt, no retry", arguments: [
        ("IMAPS_SELFSIGNED_PORT", "tls", "certificate"), ("IMAP_PLAIN_PORT", "starttls", "STARTTLS"),
    ])
    func permanentErrors(port: String, security: String, reason: String) async throws {
        try await SharedServers.shared {
            let harness = try SyncHarness(try Self.toml(name: "bad", user: "alice", port: port, security: security,
                                                        retrySeconds: 5))
            // How long a TLS handshake takes on a loaded machine is not the point: no second
            // attempt is (with 5 s retries it would be logged, and .status would say so).
            await harness.sync("bad")
            #expect(!harness.log("bad").contains("next attempt"), "retried a permanent error: \(harness.log("bad"))")
            let state = harness.state("bad")
            #expect(state.phase == .error)
            #expect(state.lastError?.lowercased().contains(reason.lowercased()) == true, "\(state.lastError ?? "")")
        }
    }

    @Test("a refused connection is shown while it is retried, with when the next attempt is")
    func transientErrorsShowNextAttempt() async throws {
        try await SharedServers.shared {
            // Port 9 (discard) has no listener on loopback: connections are refused at once.
            let toml = try Self.toml(name: "down", user: "carol", retrySeconds: 1)
                .replacingOccurrences(of: "port = \(try TestServers.env("IMAPS_PORT"))", with: "port = 9")
            let harness = try SyncHarness(toml)
            let sync = Task { await harness.sync("down") }
            let shown = try await Poll.until(seconds: 5, every: .milliseconds(100)) { harness.state("down").lastError?.contains("next attempt in") == true }
            #expect(shown, "\(harness.state("down"))")
            await sync.value
            #expect(harness.state("down").phase == .error)
        }
    }

    @Test("after Dovecot is killed and restarted, the next sync works over fresh connections")
    func restartKillsPooledConnections() async throws {
        try await SharedServers.exclusive {
            let harness = try SyncHarness(try Self.toml(name: "work", user: "bob", retrySeconds: 0))
            await harness.sync("work")
            #expect(harness.state("work").phase == .idle)
            #expect(try await TestServers.control("kill", "dovecot") == 0, "ctl.sh kill dovecot")
            #expect(try await TestServers.control("start", "dovecot") == 0, "ctl.sh start dovecot")
            await harness.sync("work")
            #expect(harness.state("work").phase == .idle, "\(harness.log("work"))")
            #expect(harness.state("work").lastError == nil)
        }
    }

    @Test("a sync that failed because the server was down is retried with backoff: synced soon after it returns")
    func retriedWithBackoff() async throws {
        try await SharedServers.exclusive {
            let harness = try SyncHarness(try Self.toml(name: "work", user: "bob", retrySeconds: 0,
                                                        extra: "poll_interval_seconds = 3600"))
            #expect(try await TestServers.control("stop", "dovecot") == 0, "ctl.sh stop dovecot")
            harness.coordinator.start()
            defer { harness.coordinator.stop() }
            let failed = try await Poll.until(seconds: 20, every: .milliseconds(100)) { harness.state("work").phase == .error }
            #expect(try await TestServers.control("start", "dovecot") == 0, "ctl.sh start dovecot")
            #expect(failed, "\(harness.log("work"))")
            let recovered = try await Poll.until(seconds: 30, every: .milliseconds(100)) { harness.state("work").phase == .idle }
            #expect(recovered, "\(harness.log("work"))")
        }
    }
}
