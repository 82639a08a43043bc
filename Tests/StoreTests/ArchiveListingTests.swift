import Foundation
import GRDB
@testable import Store
import Testing

/// archive/ lists an account's messages that no folder shows (Gmail's archive) and those of
/// its \Archive folders, never a deleted one (`archivedMessages`). Its query reads the two
/// sets by their own indexes; it must give what the rule, tested message by message, gives.
@Suite("The messages archive/ lists")
struct ArchiveListingTests {
    @Test("no folder, a hidden link only, an \\Archive folder; not a deleted one, nor another account's")
    func everyCase() throws {
        let temp = try TemporaryStore()
        let store = temp.store
        let account = try temp.serverAccount()
        let (inbox, archive) = (try temp.folder(account, "inbox", type: .inbox), try temp.folder(account, "Archive", type: .archive))
        let other = try temp.serverAccount("other")
        let otherInbox = try temp.folder(other, "inbox", type: .inbox)
        var lastUID: Int64 = 0
        func ingest(_ name: String, into folders: [Int64], account: Int64 = account) throws -> Int64 {
            let raw = Fixture.message(id: "\(name)@test", subject: name)
            _ = try store.sync.ingest(folders.map { folder in
                lastUID += 1
                return temp.incoming(raw, folder: folder, uid: lastUID)
            }, accountId: account)
            return try store.pool.read { db in
                try #require(try Int64.fetchOne(db, sql: "SELECT id FROM email WHERE messageId = ?", arguments: ["\(name)@test"]))
            }
        }
        let filed = try ingest("a", into: [inbox])
        let archived = try ingest("b", into: [archive])
        let both = try ingest("c", into: [inbox, archive])
        let unfiled = try ingest("d", into: [inbox])
        let leaving = try ingest("e", into: [inbox])
        let leavingArchive = try ingest("f", into: [inbox, archive])
        let deleted = try ingest("g", into: [inbox])
        let otherUnfiled = try ingest("h", into: [otherInbox], account: other)
        try store.pool.write { db in
            try db.execute(sql: "DELETE FROM emailFolder WHERE emailId IN (?, ?, ?)", arguments: [unfiled, deleted, otherUnfiled])
            try db.execute(sql: "UPDATE emailFolder SET pending = 'leaving' WHERE emailId = ?", arguments: [leaving])
            try db.execute(sql: "UPDATE emailFolder SET pending = 'leaving' WHERE emailId = ? AND folderId = ?",
                           arguments: [leavingArchive, archive])
            try db.execute(sql: "UPDATE email SET isDeleted = 1 WHERE id = ?", arguments: [deleted])
        }
        let listed = try store.tree.archivedMessages(accountId: account).map(\.id)
        #expect(Set(listed) == [archived, both, unfiled, leaving], "filed: \(filed), hidden archive link: \(leavingArchive)")
        #expect(listed.count == 4)
        #expect(try Set(listed) == Self.byTheRule(store, accountId: account))
    }

    @Test("after every kind of change, the same messages as the rule tested message by message")
    func afterEveryKindOfChange() throws {
        let account = try EveryKindOfChange.Account()
        let store = account.temp.store
        try EveryKindOfChange.run(on: account) { step in
            guard try store.account(named: "work") != nil else { return }
            #expect(try Set(store.tree.archivedMessages(accountId: account.id).map(\.id)) == Self.byTheRule(store, accountId: account.id),
                    "after \(step)")
        }
    }

    /// The rule as a query that tests each message of the account.
    static func byTheRule(_ store: MailStore, accountId: Int64) throws -> Set<Int64> {
        try store.pool.read { db in
            Set(try Int64.fetchAll(db, sql: """
                SELECT e.id FROM email e WHERE e.accountId = ? AND e.isDeleted = 0
                  AND (NOT EXISTS (SELECT 1 FROM emailFolder f WHERE f.emailId = e.id AND f.pending IS NOT 'leaving')
                       OR EXISTS (SELECT 1 FROM emailFolder f JOIN folder d ON d.id = f.folderId
                                  WHERE f.emailId = e.id AND d.type = 'archive' AND f.pending IS NOT 'leaving'))
                """, arguments: [accountId]))
        }
    }
}
