import Foundation
@testable import Store
import Testing

/// Issue 42 point 1: on a server whose Trash mailfs cannot find, rm must not expunge.
@Suite("rm on an account without a Trash folder")
struct NoTrashTests {
    struct Account {
        let temp: TemporaryStore
        let id: Int64
        let inbox: Int64
        let spam: Int64
        let ids: [Int64]

        init(online: Bool = true) throws {
            let temp = try TemporaryStore()
            let id = try temp.store.sync.ensureAccount(name: "work", address: "me@example.org", isOffline: !online).id ?? -1
            let inbox = try temp.folder(id, "inbox", type: .inbox)
            let messages = (1...2).map { n in
                temp.incoming(Fixture.message(id: "m\(n)@test", subject: "Message \(n)"), folder: inbox, uid: Int64(n))
            }
            _ = try temp.store.sync.ingest(messages, accountId: id)
            self.temp = temp
            self.id = id
            self.inbox = inbox
            spam = try temp.folder(id, "spam", type: .spam)
            ids = try temp.store.tree.messages(inFolder: inbox).map(\.id)
        }

        func context(deletesWithoutTrash: Bool = false, offline: Bool = false) -> WriteContext {
            WriteContext(accountId: id, isOffline: offline, isGmail: false, deleteGuard: 100,
                         deletesWithoutTrash: deletesWithoutTrash)
        }
    }

    @Test("rm in a folder is refused, and nothing changes: no journal row, the file stays listed")
    func refused() throws {
        let account = try Account()
        #expect(throws: LocalChangeError.noTrash) {
            try account.temp.store.tree.record(.remove(fromFolder: account.inbox), emailId: account.ids[0], context: account.context())
        }
        #expect(try account.temp.store.tree.messages(inFolder: account.inbox).count == 2)
        #expect(try account.temp.store.sync.dueChanges(accountId: account.id).batch.isEmpty)
    }

    @Test("delete_without_trash = true deletes for good, as asked")
    func deletesWhenAsked() throws {
        let account = try Account()
        try account.temp.store.tree.record(.remove(fromFolder: account.inbox), emailId: account.ids[0],
                                      context: account.context(deletesWithoutTrash: true))
        let batch = try account.temp.store.sync.dueChanges(accountId: account.id).batch
        #expect(batch.map(\.kind) == [.expunge] && batch.first?.isDeletion == true)
    }

    @Test("rm in spam/ still deletes for good: that is what rm there means")
    func spamIsFinal() throws {
        let account = try Account()
        try account.temp.store.tree.record(.move(fromFolder: account.inbox, toFolder: account.spam), emailId: account.ids[0],
                                      context: account.context())
        try account.temp.store.tree.record(.remove(fromFolder: account.spam), emailId: account.ids[0], context: account.context())
        #expect(try account.temp.store.tree.messages(inFolder: account.spam).isEmpty)
        #expect(try account.temp.store.tree.journalCounts(accountId: account.id).pending == 2)
    }

    @Test("an imported account, which has no server, still deletes its local copy")
    func offline() throws {
        let account = try Account(online: false)
        try account.temp.store.tree.record(.remove(fromFolder: account.inbox), emailId: account.ids[0],
                                      context: account.context(offline: true))
        #expect(try account.temp.store.tree.message(id: account.ids[0]) == nil)
    }
}

/// Discovery moves a server folder the store knows to the path it maps to now: Courier's
/// `INBOX.Trash` was `INBOX (folder)/Trash` before namespaces and names were understood.
@Suite("A known server folder follows its mapping")
struct FolderFollowsMappingTests {
    @Test("the folder keeps its messages and sync state; the directory that stood for its parent goes")
    func follows() throws {
        let temp = try TemporaryStore()
        let account = try temp.serverAccount()
        let old = try temp.store.sync.ensureFolder(accountId: account, path: "INBOX (folder)/Trash", imapPath: "INBOX.Trash",
                                              type: .custom)
        let oldId = try #require(old.id)
        _ = try temp.store.sync.ingest([temp.incoming(Fixture.message(id: "t@test", subject: "Old"), folder: oldId, uid: 7)],
                                  accountId: account)
        #expect(try temp.store.folders(accountId: account).map(\.path).sorted() == ["INBOX (folder)", "INBOX (folder)/Trash"])

        let moved = try temp.store.sync.ensureFolder(accountId: account, path: "trash", imapPath: "INBOX.Trash", type: .trash)
        try temp.store.sync.removeFolders(accountId: account, keepingIMAPPaths: ["INBOX.Trash"])
        #expect(moved.id == oldId && moved.type == .trash)
        #expect(try temp.store.folders(accountId: account).map(\.path) == ["trash"])
        #expect(try temp.store.tree.messages(inFolder: oldId).count == 1)
    }
}
