import Activity
import Foundation
import Store
import Sync
import TestSupport
import Testing

/// Sync-window retention against the real Dovecot.
@Suite("Retention against a real Dovecot", .serialized)
struct RetentionSyncTests {
    @Test("sync 90 days, then 7: older local copies go, a message with a pending change stays, the server keeps all")
    func smallerWindow() async throws {
        try await SharedServers.shared {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-ret-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: work) }
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let folder = "Retention-\(UUID().uuidString.prefix(8))"
            try await TestServers.seed(["create-mailbox", "--user", "alice", folder])
            let old = Self.imapDate(daysAgo: 60)
            for (n, date) in [old, old, Self.imapDate(daysAgo: 1)].enumerated() {
                let file = try TestServers.messageFile(id: "\(folder)-\(n)@test", subject: "Retention \(n)", in: work)
                try await TestServers.seed(["append", "--user", "alice", "--mailbox", folder, "--date", date, file.path])
            }
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice", extra: "sync_window_days = 90"))
            await harness.sync("work")
            let synced = try harness.messages("work", folder)
            #expect(try harness.counts("work", folder) == .agreeing(on: 3), "\(harness.log("work"))")
            let accountId = try harness.accountId("work")
            let pendingOne = try #require(synced.first { $0.dateReceived < Date().addingTimeInterval(-30 * 86_400) })
            try harness.store.tree.changeFlag(.seen, to: true, emailId: pendingOne.id, context: WriteContext(
                accountId: accountId, isOffline: false, isGmail: false, deleteGuard: 100))

            let narrower = try TestServers.config(try TestServers.accountTOML(name: "work", user: "alice",
                                                                               extra: "sync_window_days = 7"))
            let activities = AccountActivities(profiles: [])
            let activity = activities.activity(named: "work", address: "")
            let coordinator = SyncCoordinator(config: narrower, store: harness.store.sync, activities: activities)
            _ = await coordinator.syncOnce(account: "work")
            let kept = try harness.messages("work", folder)
            // The source now is what the 7-day window holds, and the message with a pending change.
            #expect(try harness.counts("work", folder) == .agreeing(on: 2), "\(activity.log.rendered())")
            #expect(kept.contains { $0.id == pendingOne.id })
            #expect(activity.snapshot.purgedOutsideWindow == 1)
            #expect(activity.log.rendered().contains("nothing deleted on the server"))
            #expect(try await TestServers.seed(["count", "--user", "alice", "--mailbox", folder]).trimmingCharacters(in: .whitespacesAndNewlines) == "3")
            // The next sync does not fetch it again.
            _ = await coordinator.syncOnce(account: "work")
            #expect(try harness.messages("work", folder).count == 2)
        }
    }

    /// An IMAP date-time `days` ago, as APPEND takes it for the INTERNALDATE.
    static func imapDate(daysAgo days: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "dd-MMM-yyyy HH:mm:ss +0000"
        return formatter.string(from: Date().addingTimeInterval(-Double(days) * 86_400))
    }
}
