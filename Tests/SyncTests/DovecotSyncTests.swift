import Foundation
import MailCore
@testable import Store
@testable import Sync
import TestSupport
import Testing

/// Sync against the real Dovecot that ./test starts: full and incremental sync, changes
/// made by a second client, UIDVALIDITY, and resuming after the server dies.
@Suite("Sync against a real Dovecot", .serialized)
struct DovecotSyncTests: FolderSeeding {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-sync-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    @Test("a full sync stores every message of the window, small ones whole and large ones in part")
    func fullSync() async throws {
        try await SharedServers.shared {
            let (folder, ids) = try await seededFolder("Full", count: 30, big: 2)
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            await harness.sync("work")
            #expect(harness.state("work").phase == .idle, "\(harness.state("work")) \(harness.log("work"))")
            #expect(harness.failedOnlyElsewhere("work", mine: [folder]), "\(harness.log("work"))")
            let messages = try harness.messages("work", folder)
            try await harness.expectAgreement("work", user: "alice", folder: folder)
            #expect(messages.count == ids.count)
            let stored = try messages.filter { try harness.store.tree.rawMessage(emailId: $0.id) != nil }
            #expect(stored.count == ids.count - 2, "messages over raw_store_max_kb are not stored whole")
            let big = try #require(messages.first { $0.sizeBytes > 256 * 1024 })
            #expect(try harness.store.tree.rawMessage(emailId: big.id) == nil)
            #expect(try harness.store.tree.messages(matching: SearchParser.parse("large"), in: .account(harness.accountId("work")))
                .contains { $0.id == big.id })
            #expect(try harness.folder("work", "inbox").type == .inbox)
            #expect(try harness.store.account(named: "work")?.lastSyncDate != nil)
        }
    }

    @Test("large messages of different shapes in one batch each get their own text sections and attachments")
    func largeMessagesOfSeveralShapes() async throws {
        try await SharedServers.shared {
            let folder = "Shapes-\(UUID().uuidString.prefix(8))"
            try await TestServers.seed(["create-mailbox", "--user", "alice", folder])
            let dir = work.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            // Over raw_store_max_kb (256 KB) each: text at 1; at 1.1 and 1.2; at 1 again; at
            // 1.1 and 1.2 beside a large attachment at 2.
            let shapes = [
                Self.singlePart("zebraone"), Self.alternative("zebratwo", html: "zebratwohtml"),
                Self.singlePart("zebrathree"), Self.mixed("zebrafour", html: "zebrafourhtml", attachment: "four.bin"),
            ]
            for (index, raw) in shapes.enumerated() {
                try Data(raw.utf8).write(to: dir.appendingPathComponent(String(format: "%02d.eml", index)))
            }
            try await TestServers.seed(["append", "--user", "alice", "--mailbox", folder, dir.path])
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            await harness.sync("work")
            #expect(harness.failedOnlyElsewhere("work", mine: [folder]), "\(harness.log("work"))")
            let messages = try harness.messages("work", folder)
            #expect(messages.count == 4)
            for message in messages { #expect(try harness.store.tree.rawMessage(emailId: message.id) == nil, "stored in part") }
            let account = try harness.accountId("work")
            for word in ["zebraone", "zebratwo", "zebrathree", "zebrafour"] {
                let found = try harness.store.tree.messages(matching: SearchParser.parse(word), in: .account(account))
                #expect(found.count == 1, "\(word): \(found.count) messages")
            }
            // The index takes the plain text when there is one; the HTML is kept beside it.
            let htmls = try await harness.store.pool.read { db in
                try String.fetchAll(db, sql: "SELECT bodyHTML FROM email WHERE id IN (\(messages.map { String($0.id) }.joined(separator: ",")))"
                                    + " AND bodyHTML IS NOT NULL")
            }
            #expect(htmls.filter { $0.contains("zebratwohtml") }.count == 1 && htmls.filter { $0.contains("zebrafourhtml") }.count == 1,
                    "\(htmls.map { $0.prefix(40) })")
            let withAttachment = try #require(messages.first { $0.fileName.contains("zebrafour") })
            #expect(try harness.store.sync.attachments(ofEmail: withAttachment.id).map(\.fileName) == ["four.bin"])
        }
    }

    @Test("a new account's first folder, more than a batch, is stored without its headers fetched first; a COPY of it elsewhere is linked, not stored again")
    func firstFolderThenItsCopy() async throws {
        try await SharedServers.shared {
            let count = FolderSynchronizer.batchSize + 5
            let (first, ids) = try await seededFolder("First", count: count, big: 1)
            let copy = "Copied-\(UUID().uuidString.prefix(8))"
            try await TestServers.seed(["create-mailbox", "--user", "alice", copy])
            try await TestServers.seed(["copy", "--user", "alice", "--mailbox", first, "--uids", "1:*", "--to", copy])
            // Only these two folders, in a store that holds nothing yet.
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            let account = try harness.store.sync.ensureAccount(name: "work", address: try TestServers.env("ALICE_EMAIL"), isOffline: false)
            for path in [first, copy] {
                _ = try harness.store.sync.ensureFolder(accountId: account.id ?? -1, path: path, imapPath: path, type: .custom)
            }
            let stored = try await harness.syncFolder("work", first)
            #expect(stored.added == count && stored.failed == 0, "\(stored)")
            let linked = try await harness.syncFolder("work", copy)
            #expect(linked.linked == count && linked.added == 0, "fingerprints taken from the bytes match the server's: \(linked)")
            let messages = try harness.messages("work", first)
            let messageIds = try await harness.store.pool.read { db in
                try String.fetchAll(db, sql: "SELECT messageId FROM email WHERE accountId = ?", arguments: [account.id])
            }
            #expect(messageIds.count == count && Set(messageIds) == Set(ids))
            #expect(try harness.messages("work", copy).map(\.id).sorted() == messages.map(\.id).sorted())
            #expect(try harness.store.tree.rawMessage(emailId: try #require(messages.first { $0.sizeBytes > 256 * 1024 }).id) == nil)
        }
    }

    /// A text/plain message of about 300 KB whose first line holds `word`.
    static func singlePart(_ word: String) -> String {
        shaped(word, contentType: "text/plain; charset=utf-8", body: word + "\r\n" + filler)
    }

    /// multipart/alternative of about 300 KB: `word` in the plain part, `html` in the HTML one.
    static func alternative(_ word: String, html: String) -> String {
        shaped(word, contentType: "multipart/alternative; boundary=\"alt\"", body: alternativeBody(word, html: html, boundary: "alt"))
    }

    /// multipart/mixed: the alternative texts, then a base64 attachment of about 300 KB.
    static func mixed(_ word: String, html: String, attachment: String) -> String {
        shaped(word, contentType: "multipart/mixed; boundary=\"mix\"", body:
            "--mix\r\nContent-Type: multipart/alternative; boundary=\"alt\"\r\n\r\n"
            + alternativeBody(word, html: html, boundary: "alt", filler: "")
            + "--mix\r\nContent-Type: application/octet-stream; name=\"\(attachment)\"\r\n"
            + "Content-Disposition: attachment; filename=\"\(attachment)\"\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + AttachmentFixture.base64Lines(AttachmentFixture.bytes(300_000, seed: 4)) + "--mix--\r\n")
    }

    private static func alternativeBody(_ word: String, html: String, boundary: String, filler: String = filler) -> String {
        "--\(boundary)\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(word)\r\n\(filler)"
            + "--\(boundary)\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>\(html)</p>\r\n"
            + "--\(boundary)--\r\n"
    }

    /// A message of one of the four shapes, its subject `word`, dated now.
    private static func shaped(_ word: String, contentType: String, body: String) -> String {
        TestMessage(from: "Sender <sender@example.com>", subject: word, date: MessageDate.rfc5322(Date()),
                    messageID: "\(word)-\(UUID().uuidString)@shapes.test",
                    headers: ["MIME-Version: 1.0", "Content-Type: \(contentType)"], body: body).text
    }

    private static let filler = String(repeating: "filler line to pass the size at which a message is stored in part\r\n", count: 4_500)

    @Test("an incremental sync sees APPEND, flag changes, EXPUNGE and MOVE by another client")
    func incremental() async throws {
        try await SharedServers.shared {
            let (folder, ids) = try await seededFolder("Incr", count: 5)
            let (target, _) = try await seededFolder("IncrTarget", count: 0)
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            await harness.sync("work")
            #expect(try harness.messages("work", folder).count == 5)

            let extra = try TestServers.messageFile(id: "\(folder)-new@test", subject: "Incr new", in: work)
            try await TestServers.seed(["append", "--user", "alice", "--mailbox", folder, extra.path])
            try await TestServers.seed(["flag", "--user", "alice", "--mailbox", folder, "--message-id", "<\(ids[0])>", "--add", "\\Flagged \\Seen"])
            try await TestServers.seed(["expunge", "--user", "alice", "--mailbox", folder, "--message-id", "<\(ids[1])>"])
            try await TestServers.seed(["move", "--user", "alice", "--mailbox", folder, "--message-id", "<\(ids[2])>", "--to", target])
            let movedBefore = try harness.store.tree.messages(inFolder: harness.folder("work", folder).id ?? -1)
                .first { $0.fileName.contains("Incr 2") }?.id

            await harness.sync("work")
            #expect(harness.failedOnlyElsewhere("work", mine: [folder, target]), "\(harness.log("work"))")
            let now = try harness.messages("work", folder)
            #expect(now.count == 4)
            #expect(now.contains { $0.fileName.contains("Incr new") })
            #expect(!now.contains { $0.fileName.contains("Incr 1") })
            let flagged = try #require(now.first { $0.fileName.contains("Incr 0") })
            #expect(flagged.isStarred && flagged.isRead)
            let moved = try harness.messages("work", target)
            for path in [folder, target] { try await harness.expectAgreement("work", user: "alice", folder: path) }
            #expect(moved.count == 1)
            #expect(moved.first?.id == movedBefore, "a moved message keeps its identity: no second download")
            #expect(try harness.store.tree.messages(matching: SearchParser.parse("Incr 1"), in: .account(harness.accountId("work"))).isEmpty,
                    "an expunged message is gone from the store")
        }
    }

    @Test("new mail in two folders is threaded by the end of the cycle that brought it, after an earlier cycle timed a pass")
    func threadsAtTheCycleEnd() async throws {
        try await SharedServers.shared {
            let (first, ids) = try await seededFolder("Cycle", count: 3)
            let (second, _) = try await seededFolder("CycleB", count: 0)
            // Every pass of the second cycle waits for its end.
            var timing = SyncTiming()
            timing.rethreadSpacing = 1_000_000
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"), timing: timing)
            await harness.sync("work")
            let reply = try TestServers.messageFile(id: "\(first)-reply@test", subject: "Re: Cycle 0",
                                                    headers: ["In-Reply-To: <\(ids[0])>"], in: work)
            let other = try TestServers.messageFile(id: "\(second)-new@test", subject: "CycleB alone", in: work)
            try await TestServers.seed(["append", "--user", "alice", "--mailbox", first, reply.path])
            try await TestServers.seed(["append", "--user", "alice", "--mailbox", second, other.path])

            await harness.sync("work")
            #expect(harness.failedOnlyElsewhere("work", mine: [first, second]), "\(harness.log("work"))")
            let threads = try harness.store.tree.threads(accountId: harness.accountId("work"))
            let joined = threads.filter { $0.dirName.hasSuffix(" Cycle 0") }
            #expect(joined.map(\.messageCount) == [2], "the reply joined its thread: \(joined)")
            let alone = threads.filter { $0.dirName.hasSuffix(" CycleB alone") }
            #expect(alone.map(\.messageCount) == [1], "the other folder's message has its thread: \(alone)")
        }
    }

    @Test("a reply expunged on the server leaves its thread by the end of the cycle that saw it go (the purge's pass is the cycle's)")
    func expungedReplyLeavesItsThread() async throws {
        try await SharedServers.shared {
            let (folder, ids) = try await seededFolder("Gone", count: 1)
            let reply = try TestServers.messageFile(id: "\(folder)-reply@test", subject: "Re: Gone 0",
                                                    headers: ["In-Reply-To: <\(ids[0])>"], in: work)
            try await TestServers.seed(["append", "--user", "alice", "--mailbox", folder, reply.path])
            var timing = SyncTiming()
            timing.rethreadSpacing = 1_000_000
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"), timing: timing)
            await harness.sync("work")
            let accountId = try harness.accountId("work")
            let before = try harness.store.tree.threads(accountId: accountId).filter { $0.dirName.hasSuffix(" Gone 0") }
            #expect(before.map(\.messageCount) == [2], "\(before)")

            try await TestServers.seed(["expunge", "--user", "alice", "--mailbox", folder, "--message-id", "<\(folder)-reply@test>"])
            await harness.sync("work")
            #expect(harness.failedOnlyElsewhere("work", mine: [folder]), "\(harness.log("work"))")
            #expect(try harness.messages("work", folder).count == 1)
            let after = try harness.store.tree.threads(accountId: accountId).filter { $0.dirName.hasSuffix(" Gone 0") }
            #expect(after.map(\.messageCount) == [1], "\(after)")
            #expect(try !harness.store.sync.owesRethread(accountId: accountId))
        }
    }

    @Test("messages stored without threads (a stop between storing and threading) get them at the next cycle, which finds nothing new")
    func unthreadedMessagesAreThreadedNextCycle() async throws {
        try await SharedServers.shared {
            let (folder, _) = try await seededFolder("Unthreaded", count: 3)
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            await harness.sync("work")
            let accountId = try harness.accountId("work")
            #expect(try !harness.store.sync.owesRethread(accountId: accountId))
            try await harness.store.pool.write { db in
                try db.execute(sql: "UPDATE email SET threadId = NULL WHERE accountId = ?", arguments: [accountId])
                try db.execute(sql: "DELETE FROM thread WHERE accountId = ?", arguments: [accountId])
            }
            #expect(try harness.store.sync.owesRethread(accountId: accountId))

            await harness.sync("work")
            #expect(harness.failedOnlyElsewhere("work", mine: [folder]), "\(harness.log("work"))")
            #expect(try !harness.store.sync.owesRethread(accountId: accountId))
            #expect(try harness.store.tree.threads(accountId: accountId).contains { $0.dirName.hasSuffix(" Unthreaded 0") })
        }
    }

    @Test("a UIDVALIDITY change re-associates known messages (Message-ID and fingerprint) instead of downloading them")
    func uidValidityChange() async throws {
        // Resetting UIDVALIDITY disconnects every session that has the mailbox selected:
        // other tests' syncs of the same account must not run meanwhile.
        try await SharedServers.exclusive {
            let (folder, ids) = try await seededFolder("Reset", count: 6)
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            await harness.sync("work")
            let before = try harness.messages("work", folder)
            let validity = try harness.folder("work", folder).uidValidity
            try await TestServers.seed(["reset-uidvalidity", "--user", "alice", "--mailbox", folder])
            await harness.sync("work")
            let after = try harness.messages("work", folder)
            #expect(try harness.folder("work", folder).uidValidity != validity)
            try await harness.expectAgreement("work", user: "alice", folder: folder)
            #expect(after.count == ids.count)
            #expect(Set(after.map(\.id)) == Set(before.map(\.id)), "same messages, same store ids")
            #expect(harness.log("work").contains("UIDVALIDITY changed"))
            #expect(harness.log("work").contains("\(ids.count) linked"))
        }
    }

    @Test("a Gmail-like layout maps special-use folders and skips All Mail and Important")
    func gmailLayout() async throws {
        try await SharedServers.shared {
            let harness = try SyncHarness(try TestServers.accountTOML(name: "gmail", user: "gmail"))
            await harness.sync("gmail")
            #expect(harness.state("gmail").lastError == nil, "\(harness.log("gmail"))")
            let folders = try harness.store.folders(accountId: harness.accountId("gmail"))
            let paths = Set(folders.filter(\.isSelectable).map(\.path))
            #expect(paths.isSuperset(of: ["inbox", "sent", "drafts", "trash", "spam", "starred"]), "\(paths)")
            #expect(!folders.contains { $0.imapPath.contains("All Mail") || $0.imapPath.contains("Important") })
        }
    }

    @Test("XOAUTH2 with a token command authenticates and syncs")
    func xoauth2() async throws {
        try await SharedServers.shared {
            let harness = try SyncHarness(try TestServers.accountTOML(name: "oauth", user: "bob", xoauth2: true))
            await harness.sync("oauth")
            #expect(harness.state("oauth").phase == .idle, "\(harness.log("oauth"))")
            #expect(try harness.store.account(named: "oauth")?.lastSyncDate != nil)
        }
    }

    @Test("the password never reaches the store or the log")
    func secrets() async throws {
        try await SharedServers.shared {
            let harness = try SyncHarness(try TestServers.accountTOML(name: "work", user: "alice"))
            await harness.sync("work")
            let password = try TestServers.password("alice")
            #expect(!harness.log("work").contains(password))
            for name in try FileManager.default.contentsOfDirectory(atPath: harness.directory.path) {
                let data = try Data(contentsOf: harness.directory.appendingPathComponent(name))
                #expect(data.range(of: Data(password.utf8)) == nil, "\(name) contains the password")
            }
        }
    }
}
