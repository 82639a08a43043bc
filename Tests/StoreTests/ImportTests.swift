import Foundation
import GRDB
import Import
import StoreTestSupport
import Testing
@testable import Store

@Suite("mailfs import")
struct ImportTests {
    @Test("a Maildir with Maildir++ subfolders imports with its flags, and re-import adds nothing")
    func maildir() throws {
        let temp = try TemporaryStore()
        let root = Fixture.temporaryDirectory("maildir")
        defer { try? FileManager.default.removeItem(at: root) }
        try Fixture.writeMaildir(at: root, [
            ("1.host:2,S", Fixture.message(id: "1@x", subject: "Read one")),
            ("2.host:2,F", Fixture.message(id: "2@x", subject: "Flagged one")),
        ])
        try Fixture.writeMaildir(at: root.appendingPathComponent(".Sent"), [
            ("3.host:2,S", Fixture.message(id: "3@x", subject: "Sent one")),
        ])
        try Fixture.writeMaildir(at: root.appendingPathComponent(".Work.Reports"), [
            ("4.host:2,", Fixture.message(id: "4@x", subject: "Report")),
        ])
        try Fixture.writeMaildir(at: root.appendingPathComponent(".Lists.dev"), [
            ("5.host:2,", Fixture.message(id: "5@x", subject: "Dev list")),
        ])
        let importer = MailboxImporter(store: temp.store.importer)
        let report = try importer.importMail(from: root, account: "mine")
        #expect(report.summary.added == 5)
        #expect(Set(report.folders) == ["inbox", "sent", "Work/Reports", "Lists/dev"])
        let again = try importer.importMail(from: root, account: "mine")
        #expect(again.summary.added == 0 && again.summary.alreadyPresent == 5)
        // An import checkpoints rarely (`checkpointRarely`), then leaves the writer as it was.
        #expect(try temp.store.pool.write { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") } == 1000)
        for (folder, count) in ["inbox": 2, "sent": 1, "Work/Reports": 1, "Lists/dev": 1] {
            #expect(try ListingInvariant.counts(temp.store, account: "mine", folder: folder) == .agreeing(on: count))
        }

        let account = try #require(try temp.store.account(named: "mine"))
        let folders = try temp.store.folders(accountId: account.id ?? -1)
        #expect(Set(folders.map(\.path)) == ["inbox", "sent", "Work", "Work/Reports", "Lists", "Lists/dev"])
        #expect(folders.first { $0.path == "Work" }?.isSelectable == false)
        let inbox = try #require(folders.first { $0.path == "inbox" })
        let messages = try temp.store.tree.messages(inFolder: inbox.id ?? -1)
        #expect(messages.map(\.isRead) == [true, false] || messages.map(\.isRead) == [false, true])
        #expect(messages.contains { $0.isStarred })
    }

    @Test("an import of several batches numbers each folder's messages 1...n in file order")
    func batches() throws {
        let temp = try TemporaryStore()
        let root = Fixture.temporaryDirectory("batches")
        defer { try? FileManager.default.removeItem(at: root) }
        try Fixture.writeMaildir(at: root, (1...7).map {
            ("\($0).host:2,", Fixture.message(id: "in\($0)@x", subject: "Inbox \($0)"))
        })
        try Fixture.writeMaildir(at: root.appendingPathComponent(".Sent"), (1...4).map {
            ("\($0).host:2,S", Fixture.message(id: "sent\($0)@x", subject: "Sent \($0)"))
        })
        var importer = MailboxImporter(store: temp.store.importer)
        importer.batchSize = 3
        let report = try importer.importMail(from: root, account: "mine")
        #expect(report.summary.added == 11)
        let numbered = try temp.store.pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.path, f.imapUID, e.subject FROM emailFolder f JOIN folder d ON d.id = f.folderId
                JOIN email e ON e.id = f.emailId ORDER BY d.path, f.imapUID
                """).map { "\($0[0] as String) \($0[1] as Int64) \($0[2] as String)" }
        }
        #expect(numbered == (1...7).map { "inbox \($0) Inbox \($0)" } + (1...4).map { "sent \($0) Sent \($0)" })
        let again = try importer.importMail(from: root, account: "mine")
        #expect(again.summary.added == 0 && again.summary.alreadyPresent == 11)
    }

    @Test("an mbox file becomes a folder named after it, with mutt Status flags")
    func mbox() throws {
        let temp = try TemporaryStore()
        let dir = Fixture.temporaryDirectory("mbox")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Projects.mbox")
        let messages = [
            Fixture.message(id: "p1@x", subject: "One", extraHeaders: ["Status: RO"]),
            Fixture.message(id: "p2@x", subject: "Two", body: "From the start of a line\n",
                            extraHeaders: ["X-Status: F"]),
        ]
        try Data(Fixture.mbox(messages)).write(to: file)
        let report = try MailboxImporter(store: temp.store.importer).importMail(from: file, account: "m")
        #expect(report.summary.added == 2)
        #expect(report.folders == ["Projects"])
        let account = try #require(try temp.store.account(named: "m")?.id)
        let folder = try #require(try temp.store.folders(accountId: account).first?.id)
        let listed = try temp.store.tree.messages(inFolder: folder)
        #expect(listed.filter(\.isRead).count == 1)
        #expect(listed.filter(\.isStarred).count == 1)
        #expect(try ListingInvariant.counts(temp.store, account: "m", folder: "Projects") == .agreeing(on: 2))
    }

    /// A torture test, a 3 KB fragment of it and a resend with one more header, all with
    /// its Message-ID; two messages without one; an exact copy of the fragment.
    static func sharingMessageIDs() -> (messages: [[UInt8]], distinct: Int) {
        let torture = Fixture.long(id: "torture@x", subject: "Torture test", lines: 60_000)
        let fragment = Fixture.fragment(of: torture, bytes: 3000)
        let resent = Fixture.message(id: "torture@x", subject: "Torture test", extraHeaders: ["Resent-Date: Sat, 21 Nov 2026 10:00:00 +0000"])
        let bare = [Fixture.message(id: nil, subject: "No id", body: "one\n"), Fixture.message(id: nil, subject: "No id", body: "two\n")]
        return ([torture, fragment, resent] + bare + [fragment], 5)
    }

    @Test("an mbox holding messages that share a Message-ID lists each one, under its own name")
    func mboxSharingMessageIDs() throws {
        let temp = try TemporaryStore()
        let dir = Fixture.temporaryDirectory("same-id-mbox")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (messages, distinct) = Self.sharingMessageIDs()
        try Data(Fixture.mbox(messages)).write(to: dir.appendingPathComponent("Torture.mbox"))
        let importer = MailboxImporter(store: temp.store.importer)
        let report = try importer.importMail(from: dir.appendingPathComponent("Torture.mbox"), account: "m")
        #expect(report.summary.added == distinct && report.summary.alreadyPresent == messages.count - distinct)
        #expect(try ListingInvariant.counts(temp.store, account: "m", folder: "Torture") == .agreeing(on: distinct))
        let again = try importer.importMail(from: dir.appendingPathComponent("Torture.mbox"), account: "m")
        #expect(again.summary.added == 0)
        #expect(try ListingInvariant.counts(temp.store, account: "m", folder: "Torture") == .agreeing(on: distinct))
        let account = try #require(try temp.store.account(named: "m")?.id)
        let folder = try #require(try temp.store.folders(accountId: account).first?.id)
        let sizes = try temp.store.tree.messages(inFolder: folder).map(\.sizeBytes)
        #expect(sizes.contains { $0 > 1_500_000 }, "the torture test is listed, not hidden behind its fragment")
    }

    @Test("a Maildir holding messages that share a Message-ID lists each one; a copy in a subfolder is linked")
    func maildirSharingMessageIDs() throws {
        let temp = try TemporaryStore()
        let root = Fixture.temporaryDirectory("same-id-maildir")
        defer { try? FileManager.default.removeItem(at: root) }
        let (messages, distinct) = Self.sharingMessageIDs()
        try Fixture.writeMaildir(at: root, messages.enumerated().map { ("\($0.offset).host:2,", $0.element) })
        try Fixture.writeMaildir(at: root.appendingPathComponent(".Old"), [("a.host:2,S", messages[0])])
        let report = try MailboxImporter(store: temp.store.importer).importMail(from: root, account: "mine")
        #expect(report.summary.added == distinct && report.summary.linked == 1)
        #expect(try ListingInvariant.counts(temp.store, account: "mine", folder: "inbox") == .agreeing(on: distinct))
        #expect(try ListingInvariant.counts(temp.store, account: "mine", folder: "Old") == .agreeing(on: 1))
        let account = try #require(try temp.store.account(named: "mine")?.id)
        let old = try #require(try temp.store.folders(accountId: account).first { $0.path == "Old" }?.id)
        let archived = try #require(try temp.store.tree.messages(inFolder: old).first)
        #expect(archived.folderCount == 2)
        #expect(try temp.store.tree.rawMessage(emailId: archived.id) == messages[0])
    }

    @Test("a path with no mail is refused with a reason")
    func nothing() throws {
        let temp = try TemporaryStore()
        let dir = Fixture.temporaryDirectory("empty")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: MailboxImporter.ImportError.self) {
            try MailboxImporter(store: temp.store.importer).importMail(from: dir, account: "x")
        }
        #expect(throws: MailboxImporter.ImportError.self) {
            try MailboxImporter(store: temp.store.importer).importMail(from: dir.appendingPathComponent("nope"), account: "x")
        }
    }
}
