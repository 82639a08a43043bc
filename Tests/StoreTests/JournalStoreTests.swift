import Foundation
import MailCore
@testable import Store
import Testing

/// The journal in the store: local effects at once, the guard, replay, revert, and how
/// the sync engine's writes respect changes not yet applied.
@Suite("Journal of local changes")
struct JournalStoreTests {
    struct Account {
        let temp: TemporaryStore
        let id: Int64
        let inbox: Int64
        let trash: Int64
        let projects: Int64
        var context: WriteContext

        init(online: Bool = true, guardLimit: Int = 100) throws {
            temp = try TemporaryStore()
            id = try temp.store.sync.ensureAccount(name: "work", address: "me@example.org", isOffline: !online).id ?? -1
            inbox = try temp.folder(id, "inbox", type: .inbox)
            trash = try temp.folder(id, "trash", type: .trash)
            projects = try temp.folder(id, "Projects")
            context = WriteContext(accountId: id, isOffline: !online, isGmail: false, deleteGuard: guardLimit)
        }

        /// `count` messages in the inbox, UIDs 1...count; returns their email ids.
        func fill(_ count: Int) throws -> [Int64] {
            let messages = (1...count).map { n in
                temp.incoming(Fixture.message(id: "m\(n)@test", subject: "Message \(n)"), folder: inbox, uid: Int64(n))
            }
            _ = try temp.store.sync.ingest(messages, accountId: id)
            return try temp.store.tree.messages(inFolder: inbox).map(\.id)
        }

        func names(_ folder: Int64) throws -> [String] {
            try temp.store.tree.messages(inFolder: folder).map(\.fileName)
        }

        func machine() -> ChangeStateMachine { .untimed }

        func moveToProjects(_ emailId: Int64) throws {
            try temp.store.tree.record(.move(fromFolder: inbox, toFolder: projects), emailId: emailId, context: context)
        }
    }

    @Test("rm moves the message to trash locally at once and journals one move with its source UID")
    func removeToTrash() throws {
        let account = try Account()
        let ids = try account.fill(2)
        try account.temp.store.tree.record(.remove(fromFolder: account.inbox), emailId: ids[0], context: account.context)
        #expect(try account.names(account.inbox).count == 1)
        #expect(try account.names(account.trash).count == 1)
        let (batch, _) = try account.temp.store.sync.dueChanges(accountId: account.id)
        #expect(batch.map(\.kind) == [.move] && batch.first?.uid == 1 && batch.first?.targetFolderId == account.trash)
        #expect(try account.temp.store.tree.journalCounts(accountId: account.id).pending == 1)
        #expect(try account.temp.store.tree.hasPendingChange(emailId: ids[0]))
    }

    @Test("Gmail: archive journals a copy to All Mail before the label goes (FR-SYNC-10), never a bare expunge; a refusal brings the message back")
    func gmailArchiveCopiesToAllMail() throws {
        var account = try Account()
        account.context = WriteContext(accountId: account.id, isOffline: false, isGmail: true, deleteGuard: 100)
        let emails = try account.fill(1)
        try account.temp.store.tree.record(.archive(fromFolder: account.inbox), emailId: emails[0], context: account.context)
        #expect(try account.names(account.inbox).isEmpty)
        let (batch, _) = try account.temp.store.sync.dueChanges(accountId: account.id)
        #expect(batch.map(\.kind) == [.archiveToAll])
        #expect(batch.first?.uid == 1 && batch.first?.folderId == account.inbox && batch.first?.isDeletion == false)
        let ids = batch.compactMap(\.id)
        try account.temp.store.sync.transition(ids.map { .init(id: $0, event: .claim) }, machine: account.machine())
        try account.temp.store.sync.transition(ids.map { .init(id: $0, event: .refusedForGood("no All Mail")) },
                                          machine: account.machine())
        #expect(try account.temp.store.tree.journalCounts(accountId: account.id).pending == 0)
        #expect(try account.names(account.inbox).count == 1, "the message is back in INBOX, where the server still has it")
    }

    @Test("applied: the source association goes and the arrival takes the server's UID; the sync then knows it")
    func finishMove() throws {
        let account = try Account()
        let ids = try account.fill(1)
        try account.moveToProjects(ids[0])
        let row = try #require(try account.temp.store.sync.dueChanges(accountId: account.id).batch.first)
        try account.temp.store.sync.transition([.init(id: row.id ?? 0, event: .claim)], machine: account.machine())
        try account.temp.store.sync.transition([.init(id: row.id ?? 0, event: .applied, targetUID: 77)], machine: account.machine())
        #expect(try account.temp.store.sync.knownMessages(folderId: account.projects).keys.sorted() == [77])
        #expect(try account.temp.store.sync.knownMessages(folderId: account.inbox).isEmpty)
        #expect(try account.temp.store.tree.journalCounts(accountId: account.id).pending == 0)
    }

    @Test("a message moved locally stays known to the sync in its source until the server confirms")
    func leavingStaysKnown() throws {
        let account = try Account()
        let ids = try account.fill(1)
        try account.moveToProjects(ids[0])
        #expect(try account.temp.store.sync.knownMessages(folderId: account.inbox).keys.sorted() == [1])
        #expect(try account.names(account.inbox).isEmpty)
        #expect(try account.names(account.projects).count == 1)
    }

    @Test("a refused change is reverted after its retries: the message is back where the server has it")
    func revert() throws {
        let account = try Account()
        let ids = try account.fill(1)
        try account.moveToProjects(ids[0])
        let machine = ChangeStateMachine(retryDelays: [], offlineBackoff: (1, 1))
        let row = try #require(try account.temp.store.sync.dueChanges(accountId: account.id).batch.first?.id)
        try account.temp.store.sync.transition([.init(id: row, event: .claim)], machine: machine)
        try account.temp.store.sync.transition([.init(id: row, event: .refused("NO [TRYCREATE]"))], machine: machine)
        #expect(try account.names(account.inbox).count == 1)
        #expect(try account.names(account.projects).isEmpty)
        #expect(try account.temp.store.tree.journalCounts(accountId: account.id).pending == 0)
    }

    @Test("a pending local flag change survives a sync that reports the old server flags; the other flag follows the server")
    func pendingFlagWins() throws {
        let account = try Account()
        let ids = try account.fill(1)
        try account.temp.store.tree.changeFlag(.seen, to: true, emailId: ids[0], context: account.context)
        try account.temp.store.sync.applyServerFlags(folderId: account.inbox, [1: .init(seen: false, flagged: true,
                                                                                      answered: false, draft: false)])
        let message = try #require(try account.temp.store.tree.message(id: ids[0]))
        #expect(message.isRead && message.isStarred)
    }

    @Test("setting a flag back before it was applied cancels the change")
    func flagToggle() throws {
        let account = try Account()
        let ids = try account.fill(1)
        try account.temp.store.tree.changeFlag(.flagged, to: true, emailId: ids[0], context: account.context)
        try account.temp.store.tree.changeFlag(.flagged, to: false, emailId: ids[0], context: account.context)
        #expect(try account.temp.store.tree.journalCounts(accountId: account.id).pending == 0)
    }

    @Test("done rows stay two minutes for the guard's window, then the next rm drops them")
    func doneRowsPruned() throws {
        let account = try Account(online: false)
        let ids = try account.fill(4)
        for id in ids.prefix(2) {
            try account.temp.store.tree.record(.remove(fromFolder: account.inbox), emailId: id, context: account.context)
        }
        let doneRows = { try account.temp.store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM change WHERE state = 'done'") ?? 0
        } }
        #expect(try doneRows() == 2)
        try account.temp.store.pool.write { db in
            try db.execute(sql: "UPDATE change SET createdAt = ?", arguments: [Date().addingTimeInterval(-121)])
        }
        try account.temp.store.tree.record(.remove(fromFolder: account.inbox), emailId: ids[2], context: account.context)
        #expect(try doneRows() == 1)
        try account.temp.store.tree.record(.remove(fromFolder: account.inbox), emailId: ids[3], context: account.context)
        #expect(try doneRows() == 2)
    }

    @Test("deletions beyond the guard are held: hidden, not due; cancel brings them back, confirm makes them due")
    func massDeletionGuard() throws {
        let account = try Account(guardLimit: 3)
        let ids = try account.fill(5)
        let outcomes = try ids.map { id in
            try account.temp.store.tree.record(.remove(fromFolder: account.inbox), emailId: id, context: account.context)
        }
        #expect(outcomes == [.recorded, .recorded, .recorded, .trippedGuard, .held])
        #expect(try account.names(account.inbox).isEmpty)
        #expect(try account.temp.store.tree.journalCounts(accountId: account.id) == (pending: 3, heldDeletes: 2))
        #expect(try account.temp.store.tree.resolveHeld(accountId: account.id, confirm: false, machine: account.machine()) == 2)
        #expect(try account.names(account.inbox).count == 2)
        #expect(try account.names(account.trash).count == 3)
        // Cancelled, nothing is held: the next deletion within the minute trips the guard again.
        let again = try account.temp.store.tree.messages(inFolder: account.inbox).map(\.id).map { id in
            try account.temp.store.tree.record(.remove(fromFolder: account.inbox), emailId: id, context: account.context)
        }
        #expect(again == [.trippedGuard, .held])
        #expect(try account.temp.store.tree.resolveHeld(accountId: account.id, confirm: true, machine: account.machine()) == 2)
        #expect(try account.temp.store.tree.journalCounts(accountId: account.id) == (pending: 5, heldDeletes: 0))
    }

    @Test("an APPEND row is read without its message; the bytes stay intact through state changes")
    func appendBytesReadApart() throws {
        let account = try Account()
        let note = Fixture.message(id: "note@test", subject: "Note")
        _ = try account.temp.store.tree.recordAppend(note, folderId: account.projects, flags: .init(seen: true),
                                                context: account.context)
        let row = try #require(try account.temp.store.sync.dueChanges(accountId: account.id).batch.first)
        #expect(row.kind == .append && row.raw == nil)
        let id = try #require(row.id)
        try account.temp.store.sync.transition([.init(id: id, event: .claim)], machine: account.machine())
        try account.temp.store.sync.transition([.init(id: id, event: .unreachable(failures: 1))], machine: account.machine())
        #expect(try account.temp.store.sync.appendContent(changeId: id) == LineEnds.crlf(note), "the file's bytes, CR LF")
    }

    @Test("rows a killed applier was applying are pending and interrupted after a restart")
    func recovery() throws {
        let account = try Account()
        let ids = try account.fill(1)
        try account.temp.store.tree.record(.remove(fromFolder: account.inbox), emailId: ids[0], context: account.context)
        let row = try #require(try account.temp.store.sync.dueChanges(accountId: account.id).batch.first?.id)
        try account.temp.store.sync.transition([.init(id: row, event: .claim)], machine: account.machine())
        #expect(try account.temp.store.sync.dueChanges(accountId: account.id).batch.isEmpty)
        #expect(try account.temp.store.sync.recoverInterrupted(accountId: account.id, machine: account.machine()) == 1)
        // Due at once, but the store keeps times to the nearest millisecond: a row made due
        // "now" can read as due up to 0.5 ms later (2 of 15 runs asked within that window).
        let justAfter = Date().addingTimeInterval(0.001)
        #expect(try account.temp.store.sync.dueChanges(accountId: account.id, now: justAfter).batch.first?.interrupted == true)
    }

    @Test("an imported account applies changes to the store only, at once, with nothing left in the journal")
    func offlineAccount() throws {
        let account = try Account(online: false)
        let ids = try account.fill(2)
        try account.temp.store.tree.record(.remove(fromFolder: account.inbox), emailId: ids[0], context: account.context)
        try account.temp.store.tree.record(.remove(fromFolder: account.trash), emailId: ids[0], context: account.context)
        #expect(try account.temp.store.tree.message(id: ids[0]) == nil)
        #expect(try account.temp.store.tree.journalCounts(accountId: account.id).pending == 0)
    }

    @Test("folders: rmdir of a folder holding messages is refused; mkdir, rename and rmdir otherwise")
    func folders() throws {
        let account = try Account()
        let ids = try account.fill(1)
        try account.moveToProjects(ids[0])
        #expect(throws: FolderChangeError.notEmpty) {
            try account.temp.store.tree.recordDeleteFolder(folderId: account.projects, context: account.context)
        }
        let created = try #require(try account.temp.store.tree.recordCreateFolder(path: "Receipts", context: account.context))
        #expect(created.localState == .creating)
        #expect(try account.temp.store.tree.recordCreateFolder(path: "Receipts", context: account.context) == nil)
        try account.temp.store.tree.recordRenameFolder(folderId: created.id ?? 0, to: "Receipts-2026", context: account.context)
        #expect(try account.temp.store.folder(id: created.id ?? 0)?.path == "Receipts-2026")
        try account.temp.store.tree.recordDeleteFolder(folderId: created.id ?? 0, context: account.context)
        #expect(try account.temp.store.tree.journalCounts(accountId: account.id).pending == 4)
    }
}
