import Activity
import Foundation
import MailContracts
import Store
import Sync
import TestSupport
import Testing

/// Content read while it downloads, against the real Dovecot: what a cut connection
/// leaves (docs/ARCHITECTURE.md, "Lazy content").
@Suite("Streamed content from a real Dovecot", .serialized)
struct StreamedContentTests {
    @Test("a connection cut mid-download fails its readers, keeps nothing, and the next read downloads whole")
    func cutMidDownload() async throws {
        try await SharedServers.shared {
            let lazy = try LazyContentTests()
            let attachment = AttachmentFixture(name: "cut.bin", headerName: "filename=\"cut.bin\"", mimeType: "application/octet-stream",
                                               content: AttachmentFixture.bytes(6 << 20, seed: 21), encoding: "base64")
            let raw = AttachmentMessages.mixed(id: "cut-\(UUID().uuidString)@test", subject: "Cut", attachments: [attachment])
            let (harness, folder) = try await lazy.syncedFolder("Cut", [raw])
            let message = try #require(try harness.messages("work", folder).first)
            let key = ContentKey(emailId: message.id, partId: try #require(try harness.store.sync.attachments(ofEmail: message.id).first?.partId))

            // Downloads through a proxy that cuts the first connection 1 MiB into what the
            // server sends: inside the 8 MiB literal. Later connections pass.
            let imapsPort = try #require(Int(try TestServers.env("IMAPS_PORT")))
            let proxy = try await FaultProxy(to: imapsPort, fault: .cut, afterBytes: 1 << 20, in: lazy.work)
            try await runThenCleanUp({
                let toml = try TestServers.accountTOML(name: "work", user: "alice", extra: "raw_store_max_kb = 0\n")
                    .replacingOccurrences(of: "port = \(imapsPort)", with: "port = \(proxy.port)")
                let config = try TestServers.config(toml)
                let activities = AccountActivities(profiles: config.accounts.map(AccountProfile.init))
                let downloads = SyncCoordinator(config: config, store: harness.store.sync, activities: activities)

                guard case .streaming(let stream) = try await downloads.content(key) else {
                    Issue.record("expected a download to read while it arrives")
                    return
                }
                await #expect(throws: ContentUnavailable.self) { try await stream.finished() }
                let arrived = stream.receivedBytes
                #expect(arrived > 0 && arrived < Int64(attachment.content.count), "cut inside the part: \(arrived) bytes")
                #expect(try stream.read(offset: 0, size: 1000) == Array(attachment.content.prefix(1000)))
                #expect(throws: ContentUnavailable.self) { try stream.read(offset: arrived - 10, size: 20) }
                #expect(try harness.store.cachedContent(key) == nil, "a cut download is never cached")
                let cache = harness.directory.appendingPathComponent("cache").path
                let files = FileManager.default.enumerator(atPath: cache)?.allObjects as? [String] ?? []
                #expect(files.allSatisfy { !$0.hasSuffix(".part") && !$0.contains(".partial-") }, "\(files)")
                let activity = activities.activity(named: config.accounts[0].name, address: "")
                #expect(activity.log.rendered().contains("download of \(key) failed"))

                let again = try await downloads.content(key).file()
                #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: again.path))) == attachment.content)
                #expect(proxy.events.contains { $0.connection == 0 && $0.kind == "cut" }, "\(proxy.events)")
            }, cleanUp: { await proxy.stop() })
        }
    }
}
