import Foundation
import GRDB
import Testing
@testable import Store

/// A store closed cleanly is its file alone; a store whose write-ahead log is missing,
/// damaged or not its own is refused at open instead of opening older, or corrupted, without
/// a word (`MailStore.close`, `StoreOpenMark`, `WALVerdict`).
@Suite("Closing the store, and its log at the next open")
struct StoreCloseTests {
    @Test("a closed store is its file: the log is empty, the file marked closed, and a copy of it and the pack alone has everything")
    func closedIsWhole() throws {
        let source = try Self.storeWithChanges()
        defer { try? FileManager.default.removeItem(at: source.directory) }
        try source.store.close()
        #expect(Self.size(source.directory, "mailfs.sqlite-wal") == 0)
        #expect(try Self.header(source.directory).openMark == .closed)

        let copy = Fixture.temporaryDirectory("store-copy")
        defer { try? FileManager.default.removeItem(at: copy) }
        try Self.copy(["mailfs.sqlite", MessagePack.fileName], from: source.directory, to: copy)
        let reopened = try MailStore(directory: copy)
        try Self.expectChanges(in: reopened)
        try reopened.close()
    }

    @Test("a store left open, as a crash leaves it, opens again with its log, without a word")
    func crashed() throws {
        let crash = try Self.crashCopy()
        defer { try? FileManager.default.removeItem(at: crash) }
        #expect(try Self.header(crash).openMark == .open)
        #expect(Self.size(crash, "mailfs.sqlite-wal") > 0)
        let reopened = try MailStore(directory: crash)
        try Self.expectChanges(in: reopened)
        try reopened.close()
    }

    enum LogDamage: String, CaseIterable, Sendable {
        case logDeleted, logEmptied, logCutInHalf, frameGarbled, headerGarbled, logAndIndexDeleted, anotherStoresLog,
             crashedLogBesideClosedFile
    }

    @Test("a log missing, emptied, cut, garbled or not the store's is refused, named, left as it was; accepted, the store opens",
          arguments: LogDamage.allCases)
    func refused(_ damage: LogDamage) throws {
        let crash = try Self.crashCopy()
        defer { try? FileManager.default.removeItem(at: crash) }
        let database = crash.appendingPathComponent("mailfs.sqlite").path
        let log = URL(fileURLWithPath: database + "-wal")
        try Self.damage(crash, damage)
        let before = try? Data(contentsOf: log)

        let error = try #require(throws: StoreFileError.self) { try MailStore(directory: crash) }
        switch (damage, error.kind) {
        case (.logDeleted, .log(.lost)), (.logEmptied, .log(.lost)), (.logAndIndexDeleted, .log(.lost)),
             (.logCutInHalf, .log(.damaged)), (.frameGarbled, .log(.damaged)), (.headerGarbled, .log(.damaged)),
             (.anotherStoresLog, .log(.foreign)), (.crashedLogBesideClosedFile, .log(.foreign)):
            break
        default:
            Issue.record("\(damage) reported as \(error.kind)")
        }
        #expect(error.description.contains(database) && error.description.contains(log.path), "\(error)")
        #expect(error.description.contains("--accept-lost-changes"), "says how to go on: \(error)")
        #expect((try? Data(contentsOf: log)) == before, "the log is left as it was")

        // As far as the file and the valid part of the log go: here the account itself came after.
        let accepted = try MailStore(directory: crash, acceptingLostChanges: true)
        let kept = try accepted.accounts().map(\.name)
        #expect(kept.isEmpty || kept == ["mine"])
        if case .log(.foreign) = error.kind {
            #expect(FileManager.default.fileExists(atPath: log.path + ".foreign"), "set aside, never applied")
        }
        try accepted.close()
        let again = try MailStore(directory: crash)
        #expect(try again.accounts().map(\.name) == kept, "and opens as it is from then on")
        try again.close()
    }

    @Test("two stores of one directory: the first to close leaves the log to the other, the last empties it and marks the file closed")
    func lastToClose() throws {
        let directory = Fixture.temporaryDirectory("two-stores")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try MailStore(directory: directory)
        let second = try MailStore(directory: directory)
        _ = try first.sync.ensureAccount(name: "mine", address: "me@example.org", isOffline: true)
        try first.close()
        #expect(try Self.header(directory).openMark == .open)
        #expect(Self.size(directory, "mailfs.sqlite-wal") > 0)
        #expect(try second.accounts().map(\.name) == ["mine"])
        try second.close()
        #expect(try Self.header(directory).openMark == .closed)
        #expect(Self.size(directory, "mailfs.sqlite-wal") == 0)
    }

    @Test("a closed store fails every read and write with an error")
    func usedAfterClose() throws {
        let temp = try TemporaryStore()
        try temp.store.close()
        #expect(throws: DatabaseError.self) { try temp.store.accounts() }
        #expect(throws: DatabaseError.self) { try temp.store.sync.ensureAccount(name: "late", address: "", isOffline: true) }
    }

    // MARK: - Stores to damage

    /// A store with an imported account, a folder of its own and a moved message.
    static func storeWithChanges() throws -> (store: MailStore, directory: URL) {
        let directory = Fixture.temporaryDirectory("store-close")
        let store = try MailStore(directory: directory)
        let account = try #require(try store.sync.ensureAccount(name: "mine", address: "me@example.org", isOffline: true).id)
        let inbox = try #require(try store.sync.ensureFolder(accountId: account, path: "inbox", imapPath: "INBOX", type: .inbox).id)
        let messages = (1...20).map { n in
            IncomingMessage(raw: Fixture.message(id: "\(n)@close", subject: "Message \(n)"), folderId: inbox, uid: Int64(n),
                            flags: MessageFlags(), arrival: Date(timeIntervalSince1970: 1_790_000_000))
        }
        for message in messages { _ = try store.sync.ingest([message], accountId: account) }
        _ = try store.sync.ensureFolder(accountId: account, path: "Kept", imapPath: "Kept", type: .custom)
        return (store, directory)
    }

    static func expectChanges(in store: MailStore) throws {
        let account = try #require(try store.accounts().first)
        #expect(account.name == "mine")
        let id = try #require(account.id)
        #expect(try store.tree.folderMessageCount(accountId: id) == 20)
        #expect(try store.folders(accountId: id).map(\.path).sorted() == ["Kept", "inbox"])
        let newest = try #require(try store.pool.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM email") })
        #expect(try store.tree.rawMessage(emailId: newest) == Fixture.message(id: "20@close", subject: "Message 20"))
    }

    /// The files a `kill -9` leaves: copied while the store is open and written.
    static func crashCopy() throws -> URL {
        let source = try storeWithChanges()
        defer { try? FileManager.default.removeItem(at: source.directory) }
        let crash = Fixture.temporaryDirectory("store-crash")
        try copy(["mailfs.sqlite", "mailfs.sqlite-wal", "mailfs.sqlite-shm", MessagePack.fileName], from: source.directory, to: crash)
        return crash
    }

    static func damage(_ directory: URL, _ damage: LogDamage) throws {
        let log = directory.appendingPathComponent("mailfs.sqlite-wal")
        var bytes = [UInt8](try Data(contentsOf: log))
        switch damage {
        case .logDeleted: try FileManager.default.removeItem(at: log)
        case .logEmptied: try Data().write(to: log)
        case .logCutInHalf: try Data(bytes.prefix(bytes.count / 2)).write(to: log)
        case .frameGarbled:
            for index in (bytes.count / 2)..<(bytes.count / 2 + 64) { bytes[index] ^= 0xA5 }
            try Data(bytes).write(to: log)
        case .headerGarbled:
            bytes[20] ^= 0xFF
            try Data(bytes).write(to: log)
        case .logAndIndexDeleted:
            try FileManager.default.removeItem(at: log)
            try FileManager.default.removeItem(at: directory.appendingPathComponent("mailfs.sqlite-shm"))
        case .anotherStoresLog:
            let other = try crashCopy()
            defer { try? FileManager.default.removeItem(at: other) }
            try FileManager.default.removeItem(at: log)
            try FileManager.default.copyItem(at: other.appendingPathComponent("mailfs.sqlite-wal"), to: log)
        case .crashedLogBesideClosedFile:
            // A closed store's file restored where a crashed one's log and index were left.
            let closed = try storeWithChanges()
            defer { try? FileManager.default.removeItem(at: closed.directory) }
            try closed.store.close()
            try FileManager.default.removeItem(at: directory.appendingPathComponent("mailfs.sqlite"))
            try FileManager.default.copyItem(at: closed.directory.appendingPathComponent("mailfs.sqlite"),
                                             to: directory.appendingPathComponent("mailfs.sqlite"))
        }
    }

    static func copy(_ names: [String], from source: URL, to destination: URL) throws {
        for name in names {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        }
    }

    static func header(_ directory: URL) throws -> DatabaseHeader {
        let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent("mailfs.sqlite")).prefix(DatabaseHeader.size))
        return try #require(DatabaseHeader(bytes))
    }

    static func size(_ directory: URL, _ name: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path))?[.size] as? Int) ?? -1
    }
}
