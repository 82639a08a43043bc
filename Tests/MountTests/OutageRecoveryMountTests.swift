import Foundation
import TestSupport
import Testing

/// Issue 43 point 1 (issue 42 point 6), on every server of the matrix: while the server is
/// down `.status` says so, and once it is back new mail is listed within seconds, not at
/// the next 5-minute poll. IDLE tries an unreachable server every 5 s, and the session
/// after a lost one fetches what arrived meanwhile (IdleMonitor).
@Suite("IDLE after a server outage", .serialized)
struct OutageRecoveryMountTests {
    typealias Server = WriteBack

    /// How long the server stays down: longer than IDLE's 5 s retry, several times over.
    static let outage: TimeInterval = 20
    /// What tells the catch-up from the 5-minute poll it replaced (107-301 s were measured
    /// before). The goal of issue 43 point 1, 10 s, is measured (the printed seconds, in
    /// docs/FAULTS.md), not asserted: a loaded machine may stretch any wall-clock bound.
    static let recoveryBound: TimeInterval = 60

    /// carol: on the other kinds no other test uses her, so her account syncs quickly; and
    /// the test holds the server alone, so no other test's mail is in flight.
    @Test("with the server down 20 s, .status says online: no with the reason; new mail is listed within seconds of its return, not at the poll",
          arguments: IMAPServerKind.allCases)
    func newMailAfterOutage(kind: IMAPServerKind) async throws {
        try await kind.exclusive {
            let mount = try MountedMailfs.configured([WriteBackAccount(user: "carol", kind: kind)])
            try await mount.start()
            #expect(try await mount.waitForIdle("carol"), "\(mount.text("carol/.status"))")
            try #require(try await Poll.until(seconds: 30) { mount.status("idle", of: "carol") == "active" },
                         "\(mount.text("carol/.status"))")

            let stopped = Date()
            try #require(try await kind.control("stop") == 0, "ctl.sh stop \(kind.rawValue)")
            try await runThenCleanUp({
                try await expect(Poll.until(seconds: 15) { mount.status("online", of: "carol") == "no" },
                                 orExplain: { "\(mount.text("carol/.status"))\n\(mount.text("carol/.log"))" })
                let reason = mount.status("last_error", of: "carol") ?? "none"
                #expect(reason != "none", "the reason: \(mount.text("carol/.status"))")
                print("outage noticed \(kind.rawValue): online: no after \(String(format: "%.1f", Date().timeIntervalSince(stopped))) s, last_error: \(reason)")
                // The outage itself: waiting is what is tested here, not an assertion.
                let remaining = Self.outage - Date().timeIntervalSince(stopped)
                if remaining > 0 { try await Task.sleep(for: .seconds(remaining)) }
                #expect(mount.status("online", of: "carol") == "no", "still down: \(mount.text("carol/.status"))")
            }, cleanUp: { #expect((try? await kind.control("start")) == 0, "ctl.sh start \(kind.rawValue)") })

            let returned = Date()
            let letter = Letter("After the outage")
            try await Server.append([letter], user: "carol", mailbox: "INBOX", on: kind)
            let listed = try await mount.waitForFiles([letter.fileName], in: "carol/inbox", seconds: 120)
            let seconds = Date().timeIntervalSince(returned)
            print("outage recovery \(kind.rawValue): \(String(format: "%.1f", seconds)) s")
            #expect(listed, "never listed: \(mount.text("carol/.log"))")
            #expect(seconds <= Self.recoveryBound, "listed \(String(format: "%.1f", seconds)) s after the server's return: \(mount.text("carol/.log"))")
            #expect(try await Poll.until(seconds: 15) { mount.status("online", of: "carol") == "yes" }, "\(mount.text("carol/.status"))")
        }
    }
}
