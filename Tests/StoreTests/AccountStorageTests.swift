import Foundation
import GRDB
@testable import Store
import Testing

/// The message bytes `.status` shows per account are kept by triggers (`AccountStorage`);
/// after messages come and go they must equal a recount from the messages.
@Suite("Account storage kept by triggers")
struct AccountStorageTests {
    struct Bytes: Equatable, FetchableRecord, Decodable {
        var accountId: Int64
        var messageBytes: Int64
    }

    func expectAgreeing(_ store: MailStore, after step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (kept, recounted) = try store.pool.read { db in
            (try Bytes.fetchAll(db, sql: "SELECT accountId, messageBytes FROM accountStorage ORDER BY accountId"),
             try Bytes.fetchAll(db, sql: AccountStorage.recountQuery))
        }
        #expect(kept == recounted, "after \(step)", sourceLocation: sourceLocation)
        #expect(kept.allSatisfy { $0.messageBytes >= 0 }, "after \(step)", sourceLocation: sourceLocation)
    }

    @Test("messages stored, purged, deleted with their folders and with their account")
    func comeAndGo() throws {
        let temp = try TemporaryStore()
        let store = temp.store
        let offline = try temp.account("home")
        let online = try temp.serverAccount("work")
        try expectAgreeing(store, after: "two empty accounts")
        let inbox = try temp.folder(online, "inbox", type: .inbox)
        let archive = try temp.folder(online, "archive")
        let body = String(repeating: "déjà vu ", count: 50)
        let messages = (1...6).map { n in
            temp.incoming(Fixture.message(id: "m\(n)@test", subject: "Message \(n)", body: body),
                          folder: n <= 4 ? inbox : archive, uid: Int64(n))
        }
        _ = try store.sync.ingest(messages, accountId: online)
        let home = try temp.folder(offline, "inbox", type: .inbox)
        _ = try store.sync.ingest([temp.incoming(Fixture.message(id: "h@test", subject: "Home", body: body), folder: home, uid: 1)],
                             accountId: offline)
        try expectAgreeing(store, after: "ingest")
        let use = try store.tree.storageUse(accountId: online)
        #expect(use.messages > 6 * Int64(body.utf8.count), "raw messages and their bodies, in bytes")

        _ = try store.sync.removeFromFolder(folderId: inbox, uids: [1, 2])
        _ = try store.sync.purgeUnfiled(accountId: online)
        try expectAgreeing(store, after: "messages expunged and purged")
        try store.sync.removeFolders(accountId: online, keepingIMAPPaths: ["inbox"])
        _ = try store.sync.purgeUnfiled(accountId: online)
        try expectAgreeing(store, after: "a folder gone from the server")
        #expect(try store.deleteAccount(named: "work"))
        try expectAgreeing(store, after: "an account deleted")
    }
}
