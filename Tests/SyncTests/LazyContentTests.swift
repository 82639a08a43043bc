import Foundation
import MailContracts
import Store
import Sync
import TestSupport
import Testing

/// Content on first read (FR-SYNC-08) against the real Dovecot: with `raw_store_max_kb = 0`
/// sync stores no message whole, so every byte below comes from BODY.PEEK[] / BODY.PEEK[part].
@Suite("Lazy content from a real Dovecot", .serialized)
struct LazyContentTests {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-lazy-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    /// Appends each message to a fresh folder of alice's, syncs it lazily and returns the
    /// harness and the folder.
    func syncedFolder(_ label: String, _ messages: [[UInt8]], extra: String = "") async throws -> (SyncHarness, String) {
        let folder = "\(label)-\(UUID().uuidString.prefix(8))"
        try await TestServers.seed(["create-mailbox", "--user", "alice", folder])
        let dir = work.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (index, message) in messages.enumerated() {
            try Data(message).write(to: dir.appendingPathComponent(String(format: "%03d.eml", index)))
        }
        try await TestServers.seed(["append", "--user", "alice", "--mailbox", folder, dir.path])
        let harness = try SyncHarness(try TestServers.accountTOML(
            name: "work", user: "alice", extra: "raw_store_max_kb = 0\n" + extra))
        await harness.sync("work")
        #expect(harness.failedOnlyElsewhere("work", mine: [folder]), "\(harness.log("work"))")
        try await harness.expectAgreement("work", user: "alice", folder: folder)
        return (harness, folder)
    }

    func content(_ harness: SyncHarness, _ key: ContentKey) async throws -> [UInt8] {
        let file = try await harness.coordinator.content(key).file()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: file.path)))
    }

    func downloads(_ harness: SyncHarness) -> Int {
        harness.log("work").split(separator: "\n").filter { $0.contains(" downloaded ") }.count
    }

    @Test("messages and attachments of 1 KB to 25 MB, base64 and quoted-printable, come back byte for byte")
    func roundTrips() async throws {
        try await SharedServers.shared {
            let attachments = [
                AttachmentFixture(name: "small.bin", headerName: "filename=\"small.bin\"", mimeType: "application/octet-stream",
                                  content: AttachmentFixture.bytes(1024, seed: 1), encoding: "base64"),
                AttachmentFixture(name: "notes.txt", headerName: "filename=\"notes.txt\"", mimeType: "text/plain",
                                  content: AttachmentFixture.text(300_000), encoding: "quoted-printable"),
                AttachmentFixture(name: "r.pdf", headerName: "filename*=utf-8''r%C3%A9sum%C3%A9%20%E2%9C%93.pdf",
                                  mimeType: "application/pdf", content: AttachmentFixture.bytes(2_000_000, seed: 2), encoding: "base64"),
                AttachmentFixture(name: "big.bin", headerName: "filename=\"=?utf-8?B?0J7RgtGH0ZHRgg==?=.bin\"",
                                  mimeType: "application/octet-stream", content: AttachmentFixture.bytes(25 << 20, seed: 3), encoding: "base64"),
            ]
            let raw = AttachmentMessages.mixed(id: "lazy-\(UUID().uuidString)@test", subject: "Lazy round trip", attachments: attachments)
            let (harness, folder) = try await syncedFolder("Lazy", [raw])
            let message = try #require(try harness.messages("work", folder).first)
            #expect(try harness.store.tree.rawMessage(emailId: message.id) == nil)
            #expect(message.sizeBytes == Int64(raw.count), "st_size is RFC822.SIZE before any download")
            #expect(try await content(harness, .message(message.id)) == raw, "the .eml differs from what was appended")

            let stored = try harness.store.sync.attachments(ofEmail: message.id)
            #expect(stored.map(\.fileName) == ["small.bin", "notes.txt", "résumé ✓.pdf", "Отчёт.bin"])
            for (record, fixture) in zip(stored, attachments) {
                let bytes = try await content(harness, ContentKey(emailId: message.id, partId: record.partId))
                #expect(bytes == fixture.decoded, "\(record.fileName): \(bytes.count) vs \(fixture.decoded.count) bytes")
                let after = try #require(try harness.store.tree.attachment(id: record.id ?? -1))
                #expect(after.sizeIsExact && after.isDownloaded && after.sizeBytes == Int64(fixture.decoded.count))
                #expect(after.cachePath?.hasPrefix(harness.directory.path) == true, "content stays in the store directory")
            }
            let cacheDir = harness.directory.appendingPathComponent("cache")
            let mode = try FileManager.default.attributesOfItem(
                atPath: try #require(try harness.store.tree.attachment(id: stored[0].id ?? -1)?.cachePath))[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect((try FileManager.default.attributesOfItem(atPath: cacheDir.path)[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
            #expect(try harness.store.tree.cacheUsage(accountId: harness.accountId("work")) > 25 << 20)
        }
    }

    @Test("nested multiparts: the inline image, the attachment and a forwarded message/rfc822 as .eml")
    func nested() async throws {
        try await SharedServers.shared {
            let image = AttachmentFixture(name: "logo.png", headerName: "filename=\"logo.png\"", mimeType: "image/png",
                                          content: AttachmentFixture.bytes(5000, seed: 4), encoding: "base64")
            let sheet = AttachmentFixture(name: "sheet.csv", headerName: "filename=\"sheet.csv\"", mimeType: "text/csv",
                                          content: AttachmentFixture.text(4000), encoding: "quoted-printable")
            let forwarded = Array(AttachmentMessages.header(id: "inner-\(UUID().uuidString)@test", subject: "Inner",
                                                             type: "text/plain; charset=utf-8").utf8) + Array("inner body\r\n".utf8)
            let raw = AttachmentMessages.nested(id: "nested-\(UUID().uuidString)@test", subject: "Nested",
                                                image: image, attachment: sheet, forwarded: forwarded)
            let (harness, folder) = try await syncedFolder("Nested", [raw])
            let message = try #require(try harness.messages("work", folder).first)
            let stored = try harness.store.sync.attachments(ofEmail: message.id)
            let expected: [String: [UInt8]] = ["logo.png": image.decoded, "sheet.csv": sheet.decoded]
            for record in stored {
                let bytes = try await content(harness, ContentKey(emailId: message.id, partId: record.partId))
                if let want = expected[record.fileName] {
                    #expect(bytes == want, "\(record.fileName): \(bytes.count) vs \(want.count) bytes")
                } else {
                    #expect(record.mimeType == "message/rfc822" && record.fileName.hasSuffix(".eml"), "\(record.fileName)")
                    #expect(bytes == forwarded, "forwarded: \(bytes.count) vs \(forwarded.count) bytes")
                }
            }
            #expect(Set(stored.map(\.fileName)).isSuperset(of: ["logo.png", "sheet.csv"]))
            #expect(stored.count == 3, "\(stored.map(\.fileName))")
        }
    }

    @Test("concurrent readers of one missing content cause a single FETCH")
    func singleFlight() async throws {
        try await SharedServers.shared {
            let attachment = AttachmentFixture(name: "shared.bin", headerName: "filename=\"shared.bin\"", mimeType: "application/octet-stream",
                                               content: AttachmentFixture.bytes(3_000_000, seed: 5), encoding: "base64")
            let raw = AttachmentMessages.mixed(id: "flight-\(UUID().uuidString)@test", subject: "Flight", attachments: [attachment])
            let (harness, folder) = try await syncedFolder("Flight", [raw])
            let message = try #require(try harness.messages("work", folder).first)
            let part = try #require(try harness.store.sync.attachments(ofEmail: message.id).first?.partId)
            let key = ContentKey(emailId: message.id, partId: part)
            let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<8 { group.addTask { try await content(harness, key) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 8 && results.allSatisfy { $0 == attachment.content }, "readers got different bytes")
            #expect(downloads(harness) == 1, "\(harness.log("work"))")
            _ = try await content(harness, key)
            #expect(downloads(harness) == 1, "a second read is served from the cache")
        }
    }

    @Test("above the cache limit the least recently read content is evicted and downloads again")
    func eviction() async throws {
        try await SharedServers.shared {
            let messages = (0..<3).map { n in
                AttachmentMessages.mixed(id: "evict-\(n)-\(UUID().uuidString)@test", subject: "Evict \(n)", attachments: [
                    AttachmentFixture(name: "part\(n).bin", headerName: "filename=\"part\(n).bin\"", mimeType: "application/octet-stream",
                                      content: AttachmentFixture.bytes(600_000, seed: UInt64(10 + n)), encoding: "base64"),
                ])
            }
            let (harness, folder) = try await syncedFolder("Evict", messages, extra: "cache_limit_mb = 1")
            let keys = try harness.messages("work", folder).sorted { $0.fileName < $1.fileName }.map { message in
                ContentKey(emailId: message.id, partId: try #require(try harness.store.sync.attachments(ofEmail: message.id).first?.partId))
            }
            #expect(keys.count == 3)
            for key in keys { _ = try await content(harness, key) }
            let accountId = try harness.accountId("work")
            #expect(try harness.store.tree.cacheUsage(accountId: accountId) <= 1 << 20)
            #expect(try harness.store.cachedContent(keys[0]) == nil, "the oldest read is evicted")
            #expect(try harness.store.cachedContent(keys[2]) != nil)
            let evicted = try #require(try harness.store.sync.attachments(ofEmail: keys[0].emailId).first)
            #expect(!evicted.isDownloaded && evicted.cachePath == nil && evicted.sizeIsExact)
            #expect(try await content(harness, keys[0]).count == 600_000)
            #expect(downloads(harness) == 4)
            #expect(try harness.store.clearCache(accountId: accountId) > 0)
            #expect(try harness.store.tree.cacheUsage(accountId: accountId) == 0)
        }
    }

    @Test("a message deleted on the server since the sync is gone: ENOENT and out of the folder")
    func deletedOnServer() async throws {
        try await SharedServers.shared {
            let id = "gone-\(UUID().uuidString)@test"
            let raw = AttachmentMessages.mixed(id: id, subject: "Gone", attachments: [])
            let (harness, folder) = try await syncedFolder("Gone", [raw])
            let message = try #require(try harness.messages("work", folder).first)
            try await TestServers.seed(["expunge", "--user", "alice", "--mailbox", folder, "--message-id", "<\(id)>"])
            await #expect(throws: ContentUnavailable.gone) { try await harness.coordinator.content(.message(message.id)) }
            #expect(try harness.messages("work", folder).isEmpty)
            #expect(harness.log("work").contains("no longer on the server"))
        }
    }

    @Test("with the server down a read fails after its retries within the bound; cached content stays readable")
    func serverDown() async throws {
        try await SharedServers.exclusive {
            let messages = (0..<2).map { n in
                AttachmentMessages.mixed(id: "down-\(n)-\(UUID().uuidString)@test", subject: "Down \(n)", attachments: [])
            }
            let (harness, folder) = try await syncedFolder("Down", messages)
            let ids = try harness.messages("work", folder).map(\.id)
            #expect(ids.count == 2)
            let cached = try await content(harness, .message(ids[0]))
            #expect(try await TestServers.control("stop", "dovecot") == 0, "ctl.sh stop dovecot")
            let started = ContinuousClock.now
            await #expect(throws: ContentUnavailable.self) { try await harness.coordinator.content(.message(ids[1])) }
            let waited = ContinuousClock.now - started
            #expect(try await TestServers.control("start", "dovecot") == 0, "ctl.sh start dovecot")
            // Refused connections: attempts after 0, 1, 3 and 7 s, never the 30 s connect timeout.
            #expect(waited < .seconds(15), "\(waited)")
            #expect(harness.log("work").contains("download of message \(ids[1]) failed"))
            #expect(harness.state("work").lastError?.contains("download of message \(ids[1]) failed") == true)
            #expect(try await content(harness, .message(ids[0])) == cached, "cached content needs no server")
            let recovered = try await content(harness, .message(ids[1]))
            #expect(recovered != cached && messages.contains(recovered), "downloads again once the server is back")
        }
    }
}

extension ContentDelivery {
    /// The whole content, once downloaded.
    func file() async throws -> CachedFile {
        switch self {
        case .cached(let file): file
        case .streaming(let stream): try await stream.finished()
        }
    }
}
