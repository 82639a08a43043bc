import Foundation
import GRDB
@testable import Store
import Testing

/// The counts `.status` shows per folder are kept by triggers (`FolderCounts`), and so are the
/// folder counts of messages in more than one folder (`MultiFolderEmails`, st_nlink); after
/// every kind of change they must equal a recount from the links.
@Suite("Folder counts kept by triggers")
struct FolderCountsTests {
    typealias Account = JournalStoreTests.Account

    struct Counts: Equatable, FetchableRecord, Decodable, CustomStringConvertible {
        var folderId: Int64
        var messages: Int
        var unread: Int
        var description: String { "folder \(folderId): \(messages) messages, \(unread) unread" }
    }

    /// The kept counts and a recount, folder by folder.
    func keptAndRecounted(_ store: MailStore) throws -> (kept: [Counts], recounted: [Counts]) {
        try store.pool.read { db in
            (try Counts.fetchAll(db, sql: "SELECT folderId, messages, unread FROM folderCount ORDER BY folderId"),
             try Counts.fetchAll(db, sql: FolderCounts.recountQuery))
        }
    }

    struct Shared: Equatable, FetchableRecord, Decodable {
        var emailId: Int64
        var folders: Int
    }

    func expectAgreeing(_ store: MailStore, after step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (kept, recounted) = try keptAndRecounted(store)
        #expect(kept == recounted, "after \(step)", sourceLocation: sourceLocation)
        let (keptShared, recountedShared) = try store.pool.read { db in
            (try Shared.fetchAll(db, sql: "SELECT emailId, folders FROM \(MultiFolderEmails.table) ORDER BY emailId"),
             try Shared.fetchAll(db, sql: MultiFolderEmails.recountQuery))
        }
        #expect(keptShared == recountedShared, "shared messages after \(step)", sourceLocation: sourceLocation)
    }

    @Test("arrivals, flags, local moves applied and reverted, removals, expunges, purges and folder removal")
    func everyKindOfChange() throws {
        let account = try Account()
        let store = account.temp.store
        let ids = try account.fill(5)
        try expectAgreeing(store, after: "ingest")
        #expect(try store.folderStatus(accountId: account.id).first { $0.path == "inbox" }.map { [$0.messages, $0.unread] } == [5, 5])

        // The same messages found in Projects and Trash too: one inode, two or three folders.
        let copies = [(2, account.projects, 40), (2, account.trash, 41), (3, account.projects, 42), (5, account.projects, 43)]
        _ = try store.ingest(copies.map { n, folder, uid in
            account.temp.incoming(Fixture.message(id: "m\(n)@test", subject: "Message \(n)"), folder: folder, uid: Int64(uid))
        }, accountId: account.id)
        #expect(try store.messages(inFolder: account.inbox).map(\.folderCount) == [1, 3, 2, 1, 2])
        try expectAgreeing(store, after: "copies in other folders linked")
        // No code gives a link to another message today; the triggers must still follow one.
        try store.pool.write { db in
            try db.execute(sql: "UPDATE emailFolder SET emailId = ? WHERE emailId = ? AND folderId = ?",
                           arguments: [ids[4], ids[1], account.trash])
        }
        try expectAgreeing(store, after: "a link given to another message")

        try store.changeFlag(.seen, to: true, emailId: ids[0], context: account.context)
        try store.changeFlag(.seen, to: true, emailId: ids[1], context: account.context)
        try store.changeFlag(.seen, to: false, emailId: ids[1], context: account.context)
        try expectAgreeing(store, after: "read flags")

        try account.moveToProjects(ids[0])
        try expectAgreeing(store, after: "a local move (leaving and arriving)")
        let move = try #require(try store.dueChanges(accountId: account.id).batch.first?.id)
        try store.transition([.init(id: move, event: .claim)], machine: account.machine())
        try store.transition([.init(id: move, event: .applied, targetUID: 77)], machine: account.machine())
        try expectAgreeing(store, after: "the move applied")

        try account.moveToProjects(ids[2])
        let refused = try #require(try store.dueChanges(accountId: account.id).batch.first?.id)
        let machine = ChangeStateMachine(retryDelays: [], offlineBackoff: (1, 1))
        try store.transition([.init(id: refused, event: .claim)], machine: machine)
        try store.transition([.init(id: refused, event: .refused("NO [TRYCREATE]"))], machine: machine)
        try expectAgreeing(store, after: "a move refused and reverted")

        try store.record(.remove(fromFolder: account.inbox), emailId: ids[3], context: account.context)
        try expectAgreeing(store, after: "rm (a move to trash)")
        try account.moveToProjects(ids[4])
        try store.record(.move(fromFolder: account.projects, toFolder: account.inbox), emailId: ids[4], context: account.context)
        try expectAgreeing(store, after: "a move back before the first was applied (the link it left replaced)")

        _ = try store.applyServerFlags(folderId: account.projects, [77: .init(seen: false, flagged: true, answered: false, draft: false)])
        try expectAgreeing(store, after: "server flags")

        _ = try store.removeFromFolder(folderId: account.inbox, uids: [5])
        try expectAgreeing(store, after: "an expunge reported by the server")
        _ = try store.purgeUnfiled(accountId: account.id)
        try expectAgreeing(store, after: "messages in no folder purged")
        #expect(try store.folderStatus(accountId: account.id).contains { $0.unread > 0 })
        _ = try store.purgeOutsideWindow(accountId: account.id, arrivedBefore: Date(timeIntervalSince1970: 1_790_000_001))
        try expectAgreeing(store, after: "messages deleted with their links (the sync window)")

        try store.removeFolders(accountId: account.id, keepingIMAPPaths: ["inbox", "trash"])
        try expectAgreeing(store, after: "a folder gone from the server")
        _ = try account.temp.folder(account.id, "Later")
        try expectAgreeing(store, after: "a new folder")
        #expect(try store.deleteAccount(named: "work"))
        try expectAgreeing(store, after: "the account deleted")
    }
}
