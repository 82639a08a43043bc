import Foundation
import GRDB
import Import
import Testing
@testable import Store

/// A store file that is damaged or belongs to another program is refused with its path and
/// what to do, and left exactly as it was: never opened for writing, never an empty store.
@Suite("The store file at start")
struct StoreFileTests {
    enum Damage: String, CaseIterable, Sendable {
        case truncatedToNothing, truncatedToHalf, randomBytesOverAll, randomBytesOverTheHeader, foreignDatabase
    }

    @Test("a damaged or foreign file is refused, named, and left byte for byte as it was", arguments: Damage.allCases)
    func refused(_ damage: Damage) throws {
        let directory = Fixture.temporaryDirectory("storefile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("mailfs.sqlite")
        if damage == .foreignDatabase {
            try Self.foreignDatabase(at: file)
        } else {
            try Self.storeWithMail(in: directory)
            try Self.damage(file, damage)
        }
        let before = try Data(contentsOf: file)

        let error = try #require(throws: StoreFileError.self) { try MailStore(directory: directory) }
        #expect(error.path == file.path)
        #expect(error.description.contains(file.path))
        switch (damage, error.kind) {
        case (.truncatedToNothing, .empty), (.randomBytesOverAll, .notADatabase), (.randomBytesOverTheHeader, .notADatabase),
             (.truncatedToHalf, .damaged), (.foreignDatabase, .foreign):
            break
        default:
            Issue.record("\(damage) reported as \(error.kind)")
        }
        #expect(error.description.contains(damage == .foreignDatabase ? "--data-dir" : "mv \(file.path) \(file.path).broken"),
                "says what to do: \(error)")
        #expect(try Data(contentsOf: file) == before, "the file is untouched")
        if damage == .foreignDatabase {
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(left == ["mailfs.sqlite"], "not turned into WAL mode: \(left)")
        }
    }

    @Test("a store made before stores carried mailfs's application id opens with its mail, and gets the id")
    func olderStore() throws {
        let directory = Fixture.temporaryDirectory("storefile")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.storeWithMail(in: directory)
        let file = directory.appendingPathComponent("mailfs.sqlite").path
        try DatabaseQueue(path: file).writeWithoutTransaction { try $0.execute(sql: "PRAGMA application_id = 0") }

        let store = try MailStore(directory: directory)
        #expect(try store.accounts().map(\.name) == ["mine"])
        let id = try DatabaseQueue(path: file).read { try Int32.fetchOne($0, sql: "PRAGMA application_id") }
        #expect(id == StoreFile.applicationID)
    }

    @Test("a new store has 16 KiB pages; a store made with 4 KiB pages keeps them and opens with its mail")
    func pageSize() throws {
        let directory = Fixture.temporaryDirectory("storefile")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.storeWithMail(in: directory)
        let file = directory.appendingPathComponent("mailfs.sqlite").path
        #expect(try Self.pageSize(of: file) == 16384)

        // How stores made before the change were laid out.
        try DatabaseQueue(path: file).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE; PRAGMA page_size = 4096; VACUUM; PRAGMA journal_mode = WAL")
        }
        #expect(try Self.pageSize(of: file) == 4096)
        let store = try MailStore(directory: directory)
        let account = try #require(try store.accounts().first)
        #expect(try store.tree.folderMessageCount(accountId: try #require(account.id)) == 50)
        #expect(try Self.pageSize(of: file) == 4096)
    }

    static func pageSize(of file: String) throws -> Int? {
        try DatabaseQueue(path: file).read { try Int.fetchOne($0, sql: "PRAGMA page_size") }
    }

    @Test("an SQLite file without tables becomes a store")
    func emptyDatabase() throws {
        let directory = Fixture.temporaryDirectory("storefile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("mailfs.sqlite").path
        try DatabaseQueue(path: file).writeWithoutTransaction { try $0.execute(sql: "PRAGMA user_version = 1") }
        let store = try MailStore(directory: directory)
        #expect(try store.accounts().isEmpty)
    }

    /// A store of one imported account, closed (its WAL folded back into the file).
    static func storeWithMail(in directory: URL) throws {
        let maildir = directory.appendingPathComponent("maildir")
        defer { try? FileManager.default.removeItem(at: maildir) }
        try Fixture.writeMaildir(at: maildir, (0..<50).map { n in
            ("\(n).host:2,S", Fixture.message(id: "\(n)@storefile", subject: "Message \(n)",
                                              body: String(repeating: "line \(n)\r\n", count: 200)))
        })
        let store = try MailStore(directory: directory)
        _ = try MailboxImporter(store: store.importer).importMail(from: maildir, account: "mine")
        try store.close()
    }

    static func foreignDatabase(at file: URL) throws {
        try DatabaseQueue(path: file.path).write { db in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
            try db.execute(sql: "INSERT INTO notes (body) VALUES ('not mail')")
        }
    }

    static func damage(_ file: URL, _ damage: Damage) throws {
        var bytes = [UInt8](try Data(contentsOf: file))
        switch damage {
        case .truncatedToNothing: bytes = []
        case .truncatedToHalf: bytes = Array(bytes.prefix(bytes.count / 2))
        case .randomBytesOverAll: bytes = bytes.map { _ in UInt8.random(in: 0...255) }
        case .randomBytesOverTheHeader: for index in 0..<4096 { bytes[index] = UInt8.random(in: 0...255) }
        case .foreignDatabase: break
        }
        try Data(bytes).write(to: file)
    }
}
