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
        try EveryKindOfChange.run(on: account) { step in try expectAgreeing(account.temp.store, after: step) }
    }
}
