import Foundation
import TestSupport
import Testing

/// Issue 43 point 1 (issue 42 point 6), on every server of the matrix: while the server is
/// down `.status` says so, and once it is back new mail is listed within seconds, not at
/// the next 5-minute poll. IDLE tries an unreachable server every 5 s, and the session
/// after a lost one fetches what arrived meanwhile (IdleMonitor); a sync cut short by the
/// outage is retried with backoff and woken by IDLE's return.
@Suite("IDLE after a server outage", .serialized)
struct OutageRecoveryMountTests {
    typealias Server = WriteBack

    /// What tells the catch-up from the 5-minute poll it replaced (107-301 s were measured
    /// before). The goal of issue 43 point 1, 10 s, is measured (the printed seconds, in
    /// docs/FAULTS.md), not asserted: a loaded machine may stretch any wall-clock bound.
    static let recoveryBound: TimeInterval = 60

    /// What the mount is doing when the server goes away.
    enum Moment: String, Sendable {
        /// Synced, IDLE active.
        case idle
        /// The initial sync of a folder of 400 messages of 25 KB is under way.
        case syncing
    }

    struct Outage: Sendable, CustomTestStringConvertible {
        var kind: IMAPServerKind
        var seconds: TimeInterval
        var moment: Moment
        var testDescription: String { "\(kind.rawValue), \(Int(seconds)) s, \(moment.rawValue)" }
    }

    /// Every server down 30 s while idle; Dovecot also 5 s while idle, and 5 s and 30 s
    /// while syncing. `MAILFS_TEST_OUTAGE_SECONDS=300` runs the same cases with that length
    /// instead (docs/FAULTS.md's 5-minute rows): ./test does not hold each server for 5
    /// minutes.
    static let outages: [Outage] = {
        let lengths: [TimeInterval] = ProcessInfo.processInfo.environment["MAILFS_TEST_OUTAGE_SECONDS"]
            .flatMap(TimeInterval.init).map { [$0] } ?? [5, 30]
        let long = lengths.max() ?? 30
        return IMAPServerKind.allCases.map { Outage(kind: $0, seconds: long, moment: .idle) }
            + lengths.filter { $0 != long }.map { Outage(kind: .dovecot, seconds: $0, moment: .idle) }
            + lengths.map { Outage(kind: .dovecot, seconds: $0, moment: .syncing) }
    }()

    /// carol: on the other kinds no other test uses her, so her account syncs quickly; and
    /// the test holds the server alone, so no other test's mail is in flight.
    @Test("with the server down, .status says online: no with the reason; new mail is listed within seconds of its return, not at the poll",
          arguments: outages)
    func newMailAfterOutage(outage: Outage) async throws {
        let kind = outage.kind
        try await kind.exclusive {
            let mount = try MountedMailfs.configured([WriteBackAccount(user: "carol", kind: kind)])
            let stopped = try await takeDown(kind, mount: mount, at: outage.moment)
            try await runThenCleanUp({
                try await expect(Poll.until(seconds: 15) { mount.status("online", of: "carol") == "no" },
                                 orExplain: { "\(mount.text("carol/.status"))\n\(mount.text("carol/.log"))" })
                let reason = mount.status("last_error", of: "carol") ?? "none"
                #expect(reason != "none", "the reason: \(mount.text("carol/.status"))")
                print("outage noticed \(outage.testDescription): online: no after "
                      + "\(String(format: "%.1f", Date().timeIntervalSince(stopped))) s, last_error: \(reason)")
                // The outage itself: waiting is what is tested here, not an assertion.
                let remaining = outage.seconds - Date().timeIntervalSince(stopped)
                if remaining > 0 { try await Task.sleep(for: .seconds(remaining)) }
                #expect(mount.status("online", of: "carol") == "no", "still down: \(mount.text("carol/.status"))")
            }, cleanUp: { #expect((try? await kind.control("start")) == 0, "ctl.sh start \(kind.rawValue)") })

            let returned = Date()
            let letter = Letter("After the outage")
            try await Server.append([letter], user: "carol", mailbox: "INBOX", on: kind)
            let listed = try await mount.waitForFiles([letter.fileName], in: "carol/inbox", seconds: 120)
            let seconds = Date().timeIntervalSince(returned)
            print("outage recovery \(outage.testDescription): \(String(format: "%.1f", seconds)) s")
            #expect(listed, "never listed: \(mount.text("carol/.log"))")
            #expect(seconds <= Self.recoveryBound, "listed \(String(format: "%.1f", seconds)) s after the server's return: \(mount.text("carol/.log"))")
            #expect(try await Poll.until(seconds: 15) { mount.status("online", of: "carol") == "yes" }, "\(mount.text("carol/.status"))")
            if outage.moment == .syncing {
                // The sync cut short finishes too: nothing of the folder is left out.
                #expect(try await Poll.until(seconds: 120) { mount.status("phase", of: "carol") == "idle" },
                        "\(mount.text("carol/.status"))")
            }
        }
    }

    /// Mounts carol's account and stops the server at `moment`; returns when it stopped.
    private func takeDown(_ kind: IMAPServerKind, mount: MountedMailfs, at moment: Moment) async throws -> Date {
        switch moment {
        case .idle:
            try await mount.start()
            #expect(try await mount.waitForIdle("carol"), "\(mount.text("carol/.status"))")
            try #require(try await Poll.until(seconds: 30) { mount.status("idle", of: "carol") == "active" },
                         "\(mount.text("carol/.status"))")
        case .syncing:
            let folder = try kind.unique("Outage")
            try await Server.createMailbox("carol", folder, on: kind)
            try await Server.append(Letter.many("Outage", 400, bodyLines: 400), user: "carol", mailbox: folder, on: kind)
            try await mount.start()
            let syncing = try await Poll.until(seconds: 60, every: .milliseconds(20)) {
                (mount.status("progress", of: "carol") ?? "").hasSuffix("messages")
                    && mount.status("progress", of: "carol")?.contains(" 0/") == false
            }
            try #require(syncing, "the sync was not seen under way: \(mount.text("carol/.status"))")
        }
        let progress = mount.status("progress", of: "carol") ?? "?"
        let stopped = Date()
        try #require(try await kind.control("stop") == 0, "ctl.sh stop \(kind.rawValue)")
        print("outage \(kind.rawValue) at \(moment.rawValue): stopped at progress \(progress)")
        return stopped
    }
}
