import Foundation
import GRDB
import MailCore
import Testing
@testable import Store

/// The full-text index lives in `mailfs-search.sqlite`, written after the store's commits:
/// what a crash or a damaged file loses comes back from the store when it next opens, and
/// deleted messages leave it.
@Suite("The full-text index in a file of its own")
struct SearchIndexFileTests {
    static func ids(_ store: MailStore, _ query: String) throws -> [Int64] {
        try store.tree.messages(matching: SearchParser.parse(query), in: .everyAccount).map(\.id)
    }

    static func indexedIds(_ store: MailStore) throws -> [Int64] {
        try store.pool.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM search.emailSearch_docsize ORDER BY id") }
    }

    static func searchFile(in directory: URL) -> URL {
        directory.appendingPathComponent(SearchIndexFile.name)
    }

    /// A store in `directory` with three messages, closed again; their ids.
    static func storeWithMail(in directory: URL) throws -> [Int64] {
        let store = try MailStore(directory: directory)
        let account = try store.sync.ensureAccount(name: "test", address: "test@example.org", isOffline: true).id ?? -1
        let inbox = try store.sync.ensureFolder(accountId: account, path: "inbox", imapPath: "inbox", type: .inbox).id ?? -1
        let subjects = ["Budget plans", "Lunch on Friday", "Quarterly figures"]
        let incoming = subjects.enumerated().map { index, subject in
            IncomingMessage(raw: Fixture.message(id: "m\(index)@x", subject: subject), folderId: inbox,
                            uid: Int64(index + 1), flags: MessageFlags(), arrival: Date())
        }
        _ = try store.sync.ingest(incoming, accountId: account)
        try store.sync.flushSearchIndex()
        return try store.tree.messages(inFolder: inbox).map(\.id).sorted()
    }

    @Test("new mail is searchable at once in the storing process; the store itself keeps no index table")
    func ownFile() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        _ = try temp.store.sync.ingest([temp.incoming(Fixture.message(id: "a@x", subject: "Budget plans"), folder: inbox, uid: 1)],
                                  accountId: account)
        #expect(try Self.ids(temp.store, "budget").count == 1)
        #expect(try temp.store.pool.read { db in try db.tableExists("emailSearch", in: "main") } == false)
        #expect(FileManager.default.fileExists(atPath: Self.searchFile(in: temp.directory).path))
    }

    @Test("rows a crash lost are indexed again and rows of messages gone are removed when the store opens")
    func catchUp() throws {
        let directory = Fixture.temporaryDirectory("search-catch-up")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ids = try Self.storeWithMail(in: directory)
        // The crash: message 2's index job never ran, and message 1 left the store while
        // its removal from the index was lost.
        let index = try DatabaseQueue(path: Self.searchFile(in: directory).path)
        try index.write { db in try db.execute(sql: "DELETE FROM emailSearch WHERE rowid = ?", arguments: [ids[1]]) }
        try index.close()
        do {
            let store = try MailStore(directory: directory)
            try store.pool.write { db in
                try db.execute(sql: "DELETE FROM email WHERE id = ?", arguments: [ids[0]])
                try db.execute(sql: "DELETE FROM searchRemoval")
            }
        }
        let store = try MailStore(directory: directory)
        try store.sync.flushSearchIndex()
        #expect(try Self.indexedIds(store) == [ids[1], ids[2]])
        #expect(try Self.ids(store, "lunch") == [ids[1]])
        #expect(try Self.ids(store, "budget").isEmpty)
    }

    @Test("a damaged index file is replaced and rebuilt from the store, messages synced without their bytes included")
    func damagedFile() throws {
        let directory = Fixture.temporaryDirectory("search-damaged")
        defer { try? FileManager.default.removeItem(at: directory) }
        var ids = try Self.storeWithMail(in: directory)
        do {
            let store = try MailStore(directory: directory)
            let account = try #require(try store.accounts().first?.id)
            let inbox = try #require(try store.folders(accountId: account).first?.id)
            let attachment = AttachmentInfo(partID: "2", filename: "minutes.pdf", mimeType: "application/pdf",
                                            encoding: "base64", size: 1000, isInline: false, contentID: nil)
            let partial = PartialContent(header: Fixture.message(id: "big@x", subject: "Board meeting", body: ""),
                                         bodyPlain: "The agenda is attached.", bodyHTML: nil,
                                         attachments: [attachment], size: 50_000)
            _ = try store.sync.ingest([IncomingMessage(content: .partial(partial), folderId: inbox, uid: 9,
                                                  flags: MessageFlags(), arrival: Date())], accountId: account)
            try store.sync.flushSearchIndex()
            ids = try store.tree.messages(inFolder: inbox).map(\.id).sorted()
        }
        let file = Self.searchFile(in: directory)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        try Data((0..<8192).map { _ in UInt8.random(in: 0...255) }).write(to: file)

        let store = try MailStore(directory: directory)
        try store.sync.flushSearchIndex()
        #expect(try Self.indexedIds(store) == ids)
        #expect(try Self.ids(store, "quarterly") == [ids[2]])
        #expect(try Self.ids(store, "attachment:minutes") == [ids[3]])
        #expect(try Self.ids(store, "body:agenda") == [ids[3]])
        #expect(try Self.ids(store, "mimetype:pdf") == [ids[3]])
    }

    @Test("a job that fails is reported by the next flush, and the flush after it has the lost rows back")
    func failedJobHeals() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        // Another process holds the index's write lock past the writer's busy timeout.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: Self.searchFile(in: temp.directory).path, configuration: configuration)
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        _ = try temp.store.sync.ingest([temp.incoming(Fixture.message(id: "a@x", subject: "Budget plans"), folder: inbox, uid: 1)],
                                  accountId: account)
        temp.store.searchIndex.waitUntilWritten()
        try other.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        #expect(throws: DatabaseError.self) { try temp.store.sync.flushSearchIndex() }
        try temp.store.sync.flushSearchIndex()
        #expect(try Self.ids(temp.store, "budget").count == 1)
    }

    @Test("a message deleted from the store leaves the index")
    func removal() throws {
        let directory = Fixture.temporaryDirectory("search-removal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ids = try Self.storeWithMail(in: directory)
        let store = try MailStore(directory: directory)
        try store.pool.write { db in try db.execute(sql: "DELETE FROM email WHERE id = ?", arguments: [ids[2]]) }
        try store.sync.flushSearchIndex()
        #expect(try Self.indexedIds(store) == [ids[0], ids[1]])
        #expect(try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM searchRemoval") } == 0)
    }

    @Test("another process's index commit is a change the store watcher sees")
    func watcherSeesIndexCommits() throws {
        let temp = try TemporaryStore()
        let monitor = try temp.store.tree.makeChangeMonitor()
        _ = monitor.hasChanged()
        let other = try DatabaseQueue(path: Self.searchFile(in: temp.directory).path)
        try other.write { db in
            try db.execute(sql: "INSERT INTO emailSearch (rowid, subject) VALUES (99, 'elsewhere')")
        }
        #expect(monitor.hasChanged())
        #expect(!monitor.hasChanged())
    }
}
