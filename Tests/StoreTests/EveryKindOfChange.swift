import Foundation
@testable import Store
import Testing

/// One account through every kind of change the store makes to folders and their links:
/// arrivals, copies in other folders, flags, local moves applied and reverted, removals,
/// expunges, purges, folder removal and the account's deletion. `check` runs after each,
/// named by what just happened: what the triggers keep (`FolderCountsTests`,
/// `KeptListingTests`) must agree with the links after every one.
enum EveryKindOfChange {
    typealias Account = JournalStoreTests.Account

    static func run(on account: Account, check: (String) throws -> Void) throws {
        let store = account.temp.store
        let ids = try account.fill(5)
        try check("ingest")
        #expect(try store.tree.folderStatus(accountId: account.id).first { $0.path == "inbox" }.map { [$0.messages, $0.unread] } == [5, 5])

        // The same messages found in Projects and Trash too: one inode, two or three folders.
        let copies = [(2, account.projects, 40), (2, account.trash, 41), (3, account.projects, 42), (5, account.projects, 43)]
        _ = try store.sync.ingest(copies.map { n, folder, uid in
            account.temp.incoming(Fixture.message(id: "m\(n)@test", subject: "Message \(n)"), folder: folder, uid: Int64(uid))
        }, accountId: account.id)
        #expect(try store.tree.messages(inFolder: account.inbox).map(\.folderCount) == [1, 3, 2, 1, 2])
        try check("copies in other folders linked")
        // No code gives a link to another message today; the triggers must still follow one.
        try store.pool.write { db in
            try db.execute(sql: "UPDATE emailFolder SET emailId = ? WHERE emailId = ? AND folderId = ?",
                           arguments: [ids[4], ids[1], account.trash])
        }
        try check("a link given to another message")

        try store.tree.changeFlag(.seen, to: true, emailId: ids[0], context: account.context)
        try store.tree.changeFlag(.seen, to: true, emailId: ids[1], context: account.context)
        try store.tree.changeFlag(.seen, to: false, emailId: ids[1], context: account.context)
        try check("read flags")

        try account.moveToProjects(ids[0])
        try check("a local move (leaving and arriving)")
        let move = try #require(try store.sync.dueChanges(accountId: account.id).batch.first?.id)
        try store.sync.transition([.init(id: move, event: .claim)], machine: account.machine())
        try store.sync.transition([.init(id: move, event: .applied, targetUID: 77)], machine: account.machine())
        try check("the move applied")

        try account.moveToProjects(ids[2])
        let refused = try #require(try store.sync.dueChanges(accountId: account.id).batch.first?.id)
        let machine = ChangeStateMachine(retryDelays: [], offlineBackoff: (1, 1))
        try store.sync.transition([.init(id: refused, event: .claim)], machine: machine)
        try store.sync.transition([.init(id: refused, event: .refused("NO [TRYCREATE]"))], machine: machine)
        try check("a move refused and reverted")

        try store.tree.record(.remove(fromFolder: account.inbox), emailId: ids[3], context: account.context)
        try check("rm (a move to trash)")
        try account.moveToProjects(ids[4])
        try store.tree.record(.move(fromFolder: account.projects, toFolder: account.inbox), emailId: ids[4], context: account.context)
        try check("a move back before the first was applied (the link it left replaced)")

        _ = try store.sync.applyServerFlags(folderId: account.projects, [77: .init(seen: false, flagged: true, answered: false, draft: false)])
        try check("server flags")

        _ = try store.sync.removeFromFolder(folderId: account.inbox, uids: [5])
        try check("an expunge reported by the server")
        _ = try store.sync.purgeUnfiled(accountId: account.id)
        try check("messages in no folder purged")
        #expect(try store.tree.folderStatus(accountId: account.id).contains { $0.unread > 0 })
        _ = try store.sync.purgeOutsideWindow(accountId: account.id, arrivedBefore: Date(timeIntervalSince1970: 1_790_000_001))
        try check("messages deleted with their links (the sync window)")

        try store.sync.removeFolders(accountId: account.id, keepingIMAPPaths: ["inbox", "trash"])
        try check("a folder gone from the server")
        _ = try account.temp.folder(account.id, "Later")
        try check("a new folder")
        #expect(try store.deleteAccount(named: "work"))
        try check("the account deleted")
    }
}
