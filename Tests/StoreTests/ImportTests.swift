import Foundation
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
        let importer = MailboxImporter(store: temp.store)
        let report = try importer.importMail(from: root, account: "mine")
        #expect(report.summary.added == 5)
        #expect(Set(report.folders) == ["inbox", "sent", "Work/Reports", "Lists/dev"])
        let again = try importer.importMail(from: root, account: "mine")
        #expect(again.summary.added == 0 && again.summary.alreadyPresent == 5)

        let account = try #require(try temp.store.account(named: "mine"))
        let folders = try temp.store.folders(accountId: account.id ?? -1)
        #expect(Set(folders.map(\.path)) == ["inbox", "sent", "Work", "Work/Reports", "Lists", "Lists/dev"])
        #expect(folders.first { $0.path == "Work" }?.isSelectable == false)
        let inbox = try #require(folders.first { $0.path == "inbox" })
        let messages = try temp.store.messages(inFolder: inbox.id ?? -1)
        #expect(messages.map(\.isRead) == [true, false] || messages.map(\.isRead) == [false, true])
        #expect(messages.contains { $0.isStarred })
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
        let report = try MailboxImporter(store: temp.store).importMail(from: file, account: "m")
        #expect(report.summary.added == 2)
        #expect(report.folders == ["Projects"])
        let account = try #require(try temp.store.account(named: "m")?.id)
        let folder = try #require(try temp.store.folders(accountId: account).first?.id)
        let listed = try temp.store.messages(inFolder: folder)
        #expect(listed.filter(\.isRead).count == 1)
        #expect(listed.filter(\.isStarred).count == 1)
    }

    @Test("a path with no mail is refused with a reason")
    func nothing() throws {
        let temp = try TemporaryStore()
        let dir = Fixture.temporaryDirectory("empty")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: MailboxImporter.ImportError.self) {
            try MailboxImporter(store: temp.store).importMail(from: dir, account: "x")
        }
        #expect(throws: MailboxImporter.ImportError.self) {
            try MailboxImporter(store: temp.store).importMail(from: dir.appendingPathComponent("nope"), account: "x")
        }
    }
}
