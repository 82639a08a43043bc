import Activity
import Foundation
import GRDB
import StoreTestSupport
@testable import Store
import Synchronization
import TestSupport
import Testing

/// Raw messages live in `mailfs-messages.pack` beside the store (`MessagePack`): written
/// once, read with one `pread`, their space given back when their messages go.
@Suite("Raw messages in the pack file")
struct MessagePackTests {
    @Test("a stored message's bytes are in the pack and read back whole; one stored before the pack (in the database) reads alike")
    func storedAndRead() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let packed = Fixture.long(id: "p@x", subject: "Packed", lines: 2000)
        let older = Fixture.message(id: "o@x", subject: "Older")
        _ = try temp.store.sync.ingest([temp.incoming(packed, folder: inbox, uid: 1), temp.incoming(older, folder: inbox, uid: 2)],
                                  accountId: account)
        let ids = try temp.store.tree.messages(inFolder: inbox).map(\.id).sorted()
        #expect(ids.count == 2)
        let file = try Data(contentsOf: temp.directory.appendingPathComponent(MessagePack.fileName))
        #expect(file.range(of: Data(packed)) != nil, "the bytes are in the pack")
        // The second message as a store from before the pack keeps it: in the database.
        try temp.store.pool.write { db in
            try db.execute(sql: "DELETE FROM packedContent WHERE emailId = ?", arguments: [ids[1]])
            try db.execute(sql: "INSERT INTO messageContent (emailId, raw) VALUES (?, ?)", arguments: [ids[1], Data(older)])
        }
        #expect(try temp.store.tree.rawMessage(emailId: ids[0]) == packed)
        #expect(try temp.store.tree.rawMessage(emailId: ids[1]) == older)
        #expect(try temp.store.tree.hasRawMessage(emailId: ids[0]) && temp.store.tree.hasRawMessage(emailId: ids[1]))
        // The same bytes again are recognised, wherever the stored copy keeps them.
        let again = try temp.store.sync.ingest([temp.incoming(packed, folder: inbox, uid: 3), temp.incoming(older, folder: inbox, uid: 4)],
                                          accountId: account)
        #expect(again.added == 0)
    }

    @Test("forgetting an account gives its messages' blocks back to the file system before it returns, and only theirs")
    func forgottenAccount() throws {
        let temp = try TemporaryStore()
        let kept = try temp.account("kept")
        let gone = try temp.account("gone")
        let keptMessages = Self.messages("kept", folder: try temp.folder(kept, "inbox", type: .inbox), temp: temp)
        let goneMessages = Self.messages("gone", folder: try temp.folder(gone, "inbox", type: .inbox), temp: temp)
        // Interleaved in the pack, so a hole punched too wide would take a kept message.
        for (mine, theirs) in zip(keptMessages, goneMessages) {
            _ = try temp.store.sync.ingest([mine], accountId: kept)
            _ = try temp.store.sync.ingest([theirs], accountId: gone)
        }
        let before = temp.store.pack.diskUse
        #expect(try temp.store.deleteAccount(named: "gone"))
        #expect(try Self.holes(temp.store) == 0)
        Self.expectFreed(before - temp.store.pack.diskUse, of: goneMessages)
        try Self.expectStored(keptMessages, in: temp.store)
    }

    @Test("messages any write deletes are punched a second later, on a queue of their own")
    func deletedMessages() async throws {
        let temp = try TemporaryStore()
        let messages = try Self.storedInInbox(temp)
        // Past the pass the store's opening scheduled: only the deleting commit's can punch.
        try await Task.sleep(for: .seconds(PackHoles.delay * 1.5))
        let before = temp.store.pack.diskUse
        let ids = try await temp.store.pool.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM email ORDER BY id") }
        let deleted = ids.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        try await temp.store.pool.write { db in
            try db.execute(sql: "DELETE FROM email WHERE id IN (\(databaseQuestionMarks(count: deleted.count)))",
                           arguments: StatementArguments(deleted))
        }
        #expect(try await Poll.until(seconds: 30, every: .milliseconds(50)) { try Self.holes(temp.store) == 0 })
        let gone = messages.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        Self.expectFreed(before - temp.store.pack.diskUse, of: gone)
        try Self.expectStored(messages.enumerated().filter { $0.offset % 2 == 0 }.map(\.element), in: temp.store)
    }

    @Test("a pass that cannot punch says why until one can: without hole punching its rows go, after another failure they stay for the next pass")
    func punchFailures() async throws {
        let failing = FailingPunch()
        let directory = Fixture.temporaryDirectory("pack-punch")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, inbox) = try Self.storeOfThree(in: directory, punchingWith: failing)
        let ids = try store.tree.messages(inFolder: inbox).map(\.id).sorted()
        /// Deletes the message while punching fails with `code`; true once the pass says why.
        func delete(_ id: Int64, punchingFailsWith code: Int32) async throws -> Bool {
            failing.code.withLock { $0 = code }
            try await store.pool.write { db in try db.execute(sql: "DELETE FROM email WHERE id = ?", arguments: [id]) }
            return try await Poll.until(seconds: 30, every: .milliseconds(50)) {
                store.tree.packSpaceProblem?.contains(String(cString: strerror(code))) == true
            }
        }

        #expect(try await delete(ids[0], punchingFailsWith: EOPNOTSUPP), "\(store.tree.packSpaceProblem ?? "no problem")")
        #expect(try Self.holes(store) == 0, "retrying cannot help: the rows go")
        let status = StatusReport.root([], diskUse: 0, spaceProblem: store.tree.packSpaceProblem)
        #expect(status.contains("warning: the space of deleted mail in \(MessagePack.fileName) is not given back: "))
        #expect(status.hasSuffix("all accounts synced\n"), "the summary stays the last line")

        #expect(try await delete(ids[1], punchingFailsWith: EIO), "\(store.tree.packSpaceProblem ?? "no problem")")
        #expect(try Self.holes(store) == 1, "kept for the next pass")

        failing.code.withLock { $0 = 0 }
        let before = store.pack.diskUse
        try await store.pool.write { db in try db.execute(sql: "DELETE FROM email WHERE id = ?", arguments: [ids[2]]) }
        #expect(try await Poll.until(seconds: 30, every: .milliseconds(50)) {
            try store.tree.packSpaceProblem == nil && Self.holes(store) == 0
        }, "\(store.tree.packSpaceProblem ?? "no problem")")
        #expect(before - store.pack.diskUse > 150_000, "the last two messages' blocks are back (112 KB each)")
    }

    @Test("an open message reads by range; deleted while open, a pass leaves its bytes until it is closed, then one punches them")
    func deletedWhileOpen() async throws {
        let temp = try TemporaryStore()
        let messages = try Self.storedInInbox(temp)
        let id = try #require(try await temp.store.pool.read { db in try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM email") })
        let whole = try #require(Self.raw(messages[0]))
        guard case .packed(let open)? = try temp.store.tree.rawLocation(emailId: id) else {
            Issue.record("the message is not in the pack")
            return
        }
        #expect(temp.store.tree.openPacked(open))
        #expect(try temp.store.tree.readPacked(open, at: 100, size: 50) == Array(whole[100..<150]))
        #expect(try temp.store.tree.readPacked(open, at: Int64(whole.count - 10), size: 4096) == Array(whole.suffix(10)))
        #expect(try temp.store.tree.readPacked(open, at: Int64(whole.count), size: 10).isEmpty)

        let before = temp.store.pack.diskUse
        try await temp.store.pool.write { db in try db.execute(sql: "DELETE FROM email WHERE id = ?", arguments: [id]) }
        // A pass of its own, whatever the one the deletion scheduled did meanwhile.
        try temp.store.packHoles.punchAll()
        #expect(try Self.holes(temp.store) == 1, "the open file holds it")
        #expect(try temp.store.tree.readPacked(open, at: 0, size: whole.count) == whole)
        #expect(!temp.store.tree.openPacked(open), "a location read before that pass does not open")
        #expect(try temp.store.tree.rawLocation(emailId: id) == nil)

        temp.store.tree.closePacked(open)
        #expect(try await Poll.until(seconds: 30, every: .milliseconds(50)) { try Self.holes(temp.store) == 0 },
                "closing it scheduled a pass")
        Self.expectFreed(before - temp.store.pack.diskUse, of: [messages[0]])
    }

    @Test("forgetting an account where holes cannot be punched says why when it returns (mailfs forget prints it)")
    func forgottenWithoutPunching() throws {
        let failing = FailingPunch()
        failing.code.withLock { $0 = EOPNOTSUPP }
        let directory = Fixture.temporaryDirectory("pack-forget")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _) = try Self.storeOfThree(in: directory, punchingWith: failing)
        #expect(store.tree.packSpaceProblem == nil)
        #expect(try store.deleteAccount(named: "test"))
        #expect(store.tree.packSpaceProblem?.contains(String(cString: strerror(EOPNOTSUPP))) == true,
                "\(store.tree.packSpaceProblem ?? "no problem")")
    }

    @Test("a transaction that fails gives back what it appended")
    func rolledBack() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        _ = try temp.store.sync.ingest([temp.incoming(Fixture.message(id: "a@x", subject: "First"), folder: inbox, uid: 1)],
                                  accountId: account)
        let before = temp.store.pack.diskUse
        let large = Fixture.long(id: "b@x", subject: "Refused", lines: 10000)
        // No such message: the row's foreign key fails after the bytes went in.
        #expect(throws: DatabaseError.self) {
            try temp.store.writeStoringRaw { db in
                try PackedContent.store(large, emailId: 999_999, pack: temp.store.pack, db: db)
            }
        }
        #expect(temp.store.pack.diskUse <= before + 4096, "\(temp.store.pack.diskUse) against \(before)")
        #expect(try temp.store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM packedContent") } == 1)
    }

    @Test("a transaction appending more than a writeback chunk stores every message whole; a failed one gives all of it back")
    func largeTransactions() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        // Four messages of about 3 MB: the chunk boundary falls inside the third.
        let large = (1...4).map { n in
            temp.incoming(Fixture.long(id: "big\(n)@x", subject: "Big \(n)", lines: 100_000), folder: inbox, uid: Int64(n))
        }
        let total = large.reduce(0) { $0 + (Self.raw($1)?.count ?? 0) }
        #expect(total > Int(MessagePack.writebackChunk) + Int(MessagePack.writebackChunk) / 4)
        #expect(try temp.store.sync.ingest(large, accountId: account).added == 4)
        try Self.expectStored(large, in: temp.store)
        let before = temp.store.pack.diskUse
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try temp.store.writeStoringRaw { _ in
                for message in large {
                    _ = try (Self.raw(message) ?? []).withUnsafeBytes { try temp.store.pack.append($0) }
                }
                throw Refused()
            }
        }
        #expect(temp.store.pack.diskUse <= before + 4096, "\(temp.store.pack.diskUse) against \(before)")
        try Self.expectStored(large, in: temp.store)
    }

    @Test("a pack cut short makes its messages unreadable, never short, and is damage of the store")
    func cutShort() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        _ = try temp.store.sync.ingest([temp.incoming(Fixture.long(id: "a@x", subject: "Cut", lines: 1000), folder: inbox, uid: 1)],
                                  accountId: account)
        let id = try #require(try temp.store.tree.messages(inFolder: inbox).first?.id)
        let path = temp.directory.appendingPathComponent(MessagePack.fileName).path
        #expect(truncate(path, 100) == 0)
        do {
            _ = try temp.store.tree.rawMessage(emailId: id)
            Issue.record("read a message the pack no longer holds")
        } catch {
            let damage = try #require(temp.store.damage(in: error))
            #expect(damage.description.contains("its pack \(path)") && damage.description.contains("cut short"),
                    "\(damage)")
            #expect(temp.store.knownDamage == damage)
        }
    }

    /// A store whose hole punching `failing` controls, with three messages of about 112 KB
    /// in the inbox of its account "test"; returns the store and the inbox's id.
    private static func storeOfThree(in directory: URL, punchingWith failing: FailingPunch) throws -> (MailStore, Int64) {
        let store = try MailStore(directory: directory, punchingHolesWith: failing.punch)
        let account = try store.sync.ensureAccount(name: "test", address: "test@example.org", isOffline: true).id ?? -1
        let inbox = try store.sync.ensureFolder(accountId: account, path: "inbox", imapPath: "INBOX", type: .inbox).id ?? -1
        _ = try store.sync.ingest((1...3).map { n in
            IncomingMessage(raw: Fixture.long(id: "\(n)@x", subject: "Message \(n)", lines: 4000), folderId: inbox,
                            uid: Int64(n), flags: MessageFlags(), arrival: Date())
        }, accountId: account)
        return (store, inbox)
    }

    /// The ten messages of `messages(_:folder:temp:)`, stored in a new account's inbox.
    private static func storedInInbox(_ temp: TemporaryStore) throws -> [IncomingMessage] {
        let account = try temp.account()
        let stored = messages("m", folder: try temp.folder(account, "inbox", type: .inbox), temp: temp)
        _ = try temp.store.sync.ingest(stored, accountId: account)
        return stored
    }

    /// Ten messages of about 120 KB each.
    private static func messages(_ label: String, folder: Int64, temp: TemporaryStore) -> [IncomingMessage] {
        (1...10).map { n in
            temp.incoming(Fixture.long(id: "\(label)\(n)@x", subject: "\(label) \(n)", lines: 4000), folder: folder, uid: Int64(n))
        }
    }

    private static func holes(_ store: MailStore) throws -> Int {
        try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM packHole") ?? 0 }
    }

    /// Whole blocks only: each region shares its first and last block with its neighbours.
    private static func expectFreed(_ freed: Int64, of messages: [IncomingMessage],
                                    sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Int64(messages.reduce(0) { $0 + (raw($1)?.count ?? 0) })
        #expect(freed > bytes - Int64(messages.count) * 8192 && freed <= bytes, "freed \(freed) of \(bytes)",
                sourceLocation: sourceLocation)
    }

    /// The messages still stored, read back whole, in the order they were stored.
    private static func expectStored(_ messages: [IncomingMessage], in store: MailStore,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ids = try store.pool.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM email ORDER BY id") }
        #expect(try ids.map { try store.tree.rawMessage(emailId: $0) } == messages.map(raw), sourceLocation: sourceLocation)
    }

    private static func raw(_ message: IncomingMessage) -> [UInt8]? {
        if case .raw(let bytes) = message.content { return bytes }
        return nil
    }
}

/// A hole puncher that fails with `code` (0: punches).
private final class FailingPunch: Sendable {
    let code = Mutex<Int32>(0)

    var punch: MessagePack.HolePuncher {
        { [self] fd, offset, length in
            let failure = code.withLock { $0 }
            guard failure != 0 else { return MessagePack.punchHole(fd, offset, length) }
            errno = failure
            return -1
        }
    }
}
