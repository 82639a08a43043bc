import Foundation
import GRDB
import Testing
import TestSupport
@testable import Store

/// `mailfs backup DEST` (`MailStore.backup`): a copy taken while the store is in use, the
/// database and the pack in agreement, that opens as a store of its own.
@Suite("Backing up the store")
struct StoreBackupTests {
    @Test("a backup taken while messages are stored and deleted is a whole store: every message it lists reads back its own bytes")
    func whileWritten() async throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let raws = (0..<400).map { n in Fixture.long(id: "\(n)@backup", subject: "Message \(n)", lines: 50 + n % 7 * 40) }
        for start in stride(from: 0, to: 200, by: 20) {
            _ = try temp.store.sync.ingest((start..<(start + 20)).map { temp.incoming(raws[$0], folder: inbox, uid: Int64($0 + 1)) },
                                      accountId: account)
        }
        // Another writer stores the rest and deletes the first ones while the backups run,
        // and its deletions' holes are punched meanwhile.
        let writing = Task.detached {
            for n in 200..<400 {
                _ = try temp.store.sync.ingest([temp.incoming(raws[n], folder: inbox, uid: Int64(n + 1))], accountId: account)
                try await temp.store.pool.write { db in
                    try db.execute(sql: "DELETE FROM email WHERE id = (SELECT MIN(id) FROM email)")
                }
                if n % 5 == 0 { try temp.store.packHoles.punchAll() }
            }
        }
        var backups: [URL] = []
        defer { for url in backups { try? FileManager.default.removeItem(at: url) } }
        for round in 0..<8 {
            let destination = Fixture.temporaryDirectory("backup-\(round)")
            backups.append(destination)
            _ = try temp.store.backup(to: destination)
        }
        try await writing.value

        for destination in backups {
            let copy = try MailStore(directory: destination)
            let ids = try await copy.pool.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM email") }
            #expect(!ids.isEmpty)
            for id in ids {
                let raw = try #require(try copy.tree.rawMessage(emailId: id))
                guard let number = Self.number(in: raw) else {
                    let zeros = !raw.contains { $0 != 0 }
                    Issue.record("message \(id) in \(destination.lastPathComponent) reads as no message (all zeros: \(zeros))")
                    continue
                }
                #expect(raw == raws[number], "message \(number) in \(destination.lastPathComponent)")
            }
            try copy.close()
        }
    }

    @Test("the backup is the database, closed, and the pack, private, with holes where the store's pack has them")
    func files() throws {
        let temp = try Self.store(of: 40, lines: 4000)
        try temp.store.pool.write { db in try db.execute(sql: "DELETE FROM email WHERE id % 2 = 0") }
        try temp.store.packHoles.punchAll()
        let destination = Fixture.temporaryDirectory("backup-files")
        defer { try? FileManager.default.removeItem(at: destination) }

        let report = try temp.store.backup(to: destination)
        let names = try FileManager.default.contentsOfDirectory(atPath: destination.path).sorted()
        #expect(names == [MessagePack.fileName, "mailfs.sqlite"], "nothing else, no log: \(names)")
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(atPath: destination.appendingPathComponent(name).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(name) is private")
        }
        let header = try #require(DatabaseHeader([UInt8](try Data(contentsOf: destination.appendingPathComponent("mailfs.sqlite"))
                                                      .prefix(DatabaseHeader.size))))
        #expect(header.openMark == .closed)
        var status = stat()
        #expect(stat(destination.appendingPathComponent(MessagePack.fileName).path, &status) == 0)
        #expect(Int64(status.st_size) == report.packBytes)
        #expect(Int64(status.st_blocks) * 512 < report.packBytes * 3 / 4, "the deleted half is left out: \(status.st_blocks)")
    }

    @Test("a destination that is a file or holds anything is refused and left as it was")
    func neverOverwrites() throws {
        let temp = try TemporaryStore()
        let holder = Fixture.temporaryDirectory("backup-taken")
        defer { try? FileManager.default.removeItem(at: holder) }
        let earlier = holder.appendingPathComponent("mailfs.sqlite")
        try Data("an earlier backup".utf8).write(to: earlier)
        #expect(throws: BackupError.self) { try temp.store.backup(to: holder) }
        #expect(try Data(contentsOf: earlier) == Data("an earlier backup".utf8))
        #expect(throws: BackupError.self) { try temp.store.backup(to: earlier) }
        #expect(throws: BackupError.self) { try temp.store.backup(to: temp.directory) }
    }

    @Test("while a backup reads the pack, no hole is punched; after it, the next pass punches them")
    func punchingWaits() async throws {
        let temp = try Self.store(of: 3, lines: 2000)
        // What `backup` holds while it copies the pack.
        let reading = open(temp.store.pack.url.path, O_RDONLY)
        #expect(flock(reading, LOCK_SH) == 0)
        try await temp.store.pool.write { db in try db.execute(sql: "DELETE FROM email") }
        try temp.store.packHoles.punchAll()
        #expect(try Self.holes(temp.store) == 3, "left for a later pass")
        close(reading)
        #expect(try await Poll.until(seconds: 30, every: .milliseconds(50)) { try Self.holes(temp.store) == 0 },
                "the pass it scheduled punched them")
    }

    /// A store of `count` messages of `lines` lines each, in one inbox.
    static func store(of count: Int, lines: Int) throws -> TemporaryStore {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        _ = try temp.store.sync.ingest((1...count).map { n in
            temp.incoming(Fixture.long(id: "\(n)@stored", subject: "Message \(n)", lines: lines), folder: inbox, uid: Int64(n))
        }, accountId: account)
        return temp
    }

    static func holes(_ store: MailStore) throws -> Int {
        try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM packHole") ?? -1 }
    }

    /// n in a message's "<n@backup>".
    static func number(in raw: [UInt8]) -> Int? {
        let text = String(decoding: raw.prefix(400), as: UTF8.self)
        guard let range = text.range(of: #"Message-ID: <(\d+)@"#, options: .regularExpression) else { return nil }
        return Int(text[range].dropFirst("Message-ID: <".count).dropLast())
    }
}
