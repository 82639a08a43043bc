import Foundation
@testable import Store
import Testing

/// A message copied into a folder whose APPEND the server refuses is kept in the
/// account's local `lost+found/`, never dropped; and one change waiting for its retry
/// holds back only the changes that depend on it.
@Suite("Refused APPENDs and the journal's order")
struct LostAndFoundTests {
    typealias Account = JournalStoreTests.Account

    static let note = Array("From: me@example.org\nSubject: note\nMessage-ID: <note@example.org>\n\nhello\n".utf8)

    func copyIn(_ account: Account, to folder: Int64) throws -> Int64 {
        _ = try account.temp.store.tree.recordAppend(Self.note, folderId: folder, flags: .init(seen: true), context: account.context)
        return try #require(try account.temp.store.sync.dueChanges(accountId: account.id).batch.first { $0.kind == .append }?.id)
    }

    func lostAndFound(_ account: Account) throws -> FolderRecord? {
        try account.temp.store.folders(accountId: account.id).first(where: LostAndFound.isLostAndFound)
    }

    @Test("a refused APPEND's message leaves the folder for lost+found/ instead of vanishing")
    func refusedAppendIsKept() throws {
        let account = try Account()
        let row = try copyIn(account, to: account.projects)
        #expect(try account.names(account.projects).count == 1)
        let machine = account.machine()
        try account.temp.store.sync.transition([.init(id: row, event: .claim)], machine: machine)
        try account.temp.store.sync.transition([.init(id: row, event: .refusedForGood("APPEND failed: NO [OVERQUOTA]"))],
                                          machine: machine)
        #expect(try account.names(account.projects).isEmpty)
        let kept = try #require(try lostAndFound(account))
        #expect(kept.path == "lost+found" && kept.imapPath.hasPrefix("mailfs-"))
        #expect(try account.names(kept.id ?? -1).count == 1)
        #expect(try account.temp.store.tree.journalCounts(accountId: account.id).pending == 0)
        let message = try #require(try account.temp.store.tree.messages(inFolder: kept.id ?? -1).first)
        #expect(try account.temp.store.sync.purgeOutsideWindow(accountId: account.id, arrivedBefore: Date().addingTimeInterval(86_400)) == 0,
                "retention never removes what only the store has")
        #expect(try account.temp.store.tree.message(id: message.id) != nil)
    }

    @Test("the folder removed under a waiting APPEND does not take its message: it is kept in lost+found/")
    func folderGoneMeanwhile() throws {
        let account = try Account()
        let row = try copyIn(account, to: account.projects)
        try account.temp.store.sync.removeFolders(accountId: account.id, keepingIMAPPaths: ["inbox", "trash"])
        let machine = account.machine()
        try account.temp.store.sync.transition([.init(id: row, event: .claim)], machine: machine)
        try account.temp.store.sync.transition([.init(id: row, event: .refusedForGood("the target folder no longer exists"))],
                                          machine: machine)
        let kept = try #require(try lostAndFound(account))
        #expect(try account.names(kept.id ?? -1).count == 1)
    }

    @Test("rm in lost+found/ deletes locally with no journal row; mv into or out of it is refused")
    func operationsInLostAndFound() throws {
        let account = try Account()
        let row = try copyIn(account, to: account.projects)
        let machine = account.machine()
        try account.temp.store.sync.transition([.init(id: row, event: .claim)], machine: machine)
        try account.temp.store.sync.transition([.init(id: row, event: .refusedForGood("NO"))], machine: machine)
        let kept = try #require(try lostAndFound(account)?.id)
        let emailId = try #require(try account.temp.store.tree.messages(inFolder: kept).first?.id)
        #expect(throws: LocalChangeError.notPermitted) {
            try account.temp.store.tree.record(.move(fromFolder: kept, toFolder: account.inbox), emailId: emailId,
                                          context: account.context)
        }
        try account.temp.store.tree.record(.remove(fromFolder: kept), emailId: emailId, context: account.context)
        #expect(try account.names(kept).isEmpty)
        #expect(try account.temp.store.sync.dueChanges(accountId: account.id).batch.isEmpty)
        #expect(try account.temp.store.tree.message(id: emailId) == nil)
    }

    @Test("an APPEND waiting for its retry does not hold back a mkdir and another message's change")
    func laterChangesGoAhead() throws {
        let account = try Account()
        let ids = try account.fill(1)
        let row = try copyIn(account, to: account.projects)
        let machine = account.machine()
        try account.temp.store.sync.transition([.init(id: row, event: .claim)], machine: machine)
        try account.temp.store.sync.transition([.init(id: row, event: .refused("APPEND failed: NO [UNAVAILABLE]"))], machine: machine)
        _ = try account.temp.store.tree.recordCreateFolder(path: "Later", context: account.context)
        try account.temp.store.tree.changeFlag(.flagged, to: true, emailId: ids[0], context: account.context)
        let (batch, _) = try account.temp.store.sync.dueChanges(accountId: account.id)
        #expect(batch.map(\.kind) == [.createFolder])
    }

    @Test("cp into a server account's folder stores CR LF line ends, the bytes the APPEND sends; an imported account keeps the file's")
    func storedLineEnds() throws {
        for online in [true, false] {
            let account = try Account(online: online)
            _ = try account.temp.store.tree.recordAppend(Self.note, folderId: account.projects, flags: .init(seen: true),
                                                    context: account.context)
            let emailId = try #require(try account.temp.store.tree.messages(inFolder: account.projects).first?.id)
            let stored = try #require(try account.temp.store.tree.rawMessage(emailId: emailId))
            #expect(stored == (online ? Array(String(decoding: Self.note, as: UTF8.self)
                .replacingOccurrences(of: "\n", with: "\r\n").utf8) : Self.note), "online: \(online)")
        }
    }
}
