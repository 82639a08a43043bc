import Foundation
import GRDB
@testable import Store
import Testing

/// Large folders' listings kept in files (`KeptListings`): the bytes come back as written
/// and nothing else decodes; a kept listing is used only while no change reached what it
/// shows (`ListingVersions`), checked after every kind of change the store makes.
@Suite("Kept folder listings")
struct KeptListingTests {
    typealias Account = JournalStoreTests.Account

    static let entries = [
        MessageEntry(id: 7, accountId: 1, fileName: "2026-01-01 0232 Sara Okafor - Arrival 8288.eml", sizeBytes: 5_120,
                     dateSent: Date(timeIntervalSince1970: 1_767_234_753.25), dateReceived: Date(timeIntervalSince1970: 1_767_234_760),
                     folderCount: 1, isRead: false, isStarred: true,
                     packed: PackedMessage(offset: 1 << 40, count: 5_120, pass: 3)),
        MessageEntry(id: 3, accountId: 1, fileName: "2026-01-02 Søren Müller - 日本語 ✉️.eml", sizeBytes: 0,
                     dateSent: nil, dateReceived: Date(timeIntervalSinceReferenceDate: -1e9),
                     folderCount: 3, isRead: true, isStarred: false, packed: nil),
        MessageEntry(id: Int64.max, accountId: Int64.max, fileName: "", sizeBytes: Int64.min,
                     dateSent: Date(timeIntervalSinceReferenceDate: 0), dateReceived: Date.distantFuture,
                     folderCount: Int(Int32.max), isRead: true, isStarred: true,
                     packed: PackedMessage(offset: 0, count: 0, pass: 3)),
    ]

    @Test("a listing comes back as it was written, with the version and the pass it is read under")
    func roundTrip() throws {
        let bytes = KeptListingCodec.encode(Self.entries, version: -42)
        #expect(KeptListingCodec.version(of: bytes) == -42)
        let decoded = try #require(KeptListingCodec.decode(bytes, pass: 3))
        #expect(decoded.version == -42 && decoded.entries == Self.entries)
        #expect(KeptListingCodec.decode(bytes, pass: 4)?.entries.compactMap(\.packed?.pass) == [4, 4])
        #expect(KeptListingCodec.decode(KeptListingCodec.encode([], version: 9), pass: 0).map { [$0.version, Int64($0.entries.count)] } == [9, 0])
    }

    @Test("bytes cut short, changed anywhere, extended or made up decode to nothing")
    func damagedBytes() {
        let bytes = KeptListingCodec.encode(Self.entries, version: 5)
        for length in 0..<bytes.count {
            #expect(KeptListingCodec.decode(Array(bytes[..<length]), pass: 0) == nil, "cut to \(length) bytes")
        }
        for position in bytes.indices {
            var changed = bytes
            changed[position] ^= 0x10
            #expect(KeptListingCodec.decode(changed, pass: 0) == nil, "byte \(position) changed")
        }
        #expect(KeptListingCodec.decode(bytes + [0], pass: 0) == nil)
        // A count no file of this size could hold, under a valid checksum.
        var inflated = Array(bytes[..<12]) + [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f] + bytes[13..<(bytes.count - 8)]
        inflated.append(contentsOf: withUnsafeBytes(of: inflated.withUnsafeBytes(KeptListingCodec.checksum).littleEndian, Array.init))
        #expect(KeptListingCodec.decode(inflated, pass: 0) == nil)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var garbage = KeptListingCodec.magic + (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255) }
            #expect(KeptListingCodec.decode(garbage, pass: 0) == nil)
            // Made up with a valid checksum: the parser alone must refuse it, never trap.
            garbage.append(contentsOf: withUnsafeBytes(of: garbage.withUnsafeBytes(KeptListingCodec.checksum).littleEndian, Array.init))
            _ = KeptListingCodec.decode(garbage, pass: 0)
        }
    }

    /// Keeps every folder's listing at its current version.
    func keepAll(_ store: MailStore) throws {
        for folderId in try folderIds(store) { try store.keepListing(ofFolder: folderId, pass: 0) }
    }

    func folderIds(_ store: MailStore) throws -> [Int64] {
        try store.pool.read { db in try Int64.fetchAll(db, sql: "SELECT folderId FROM folderCount ORDER BY folderId") }
    }

    func version(_ store: MailStore, _ folderId: Int64) throws -> Int64? {
        try store.pool.read { db in try Int64.fetchOne(db, sql: "SELECT listingVersion FROM folderCount WHERE folderId = ?", arguments: [folderId]) }
    }

    /// Tallies, over a run of changes, the folders whose kept listing was still current
    /// (and listed what the store does) and those whose version had moved on.
    final class Tally {
        var reused = 0, renewed = 0
    }

    /// Every folder whose kept listing is still current must list exactly what the store
    /// does now; then all are kept again for the next step.
    func expectCurrentOrRenewed(_ store: MailStore, after step: String, tally: Tally,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        for folderId in try folderIds(store) {
            let fresh = try store.pool.read { db in
                try MailStore.messagesFromStore(inFolder: folderId, db)
            }
            guard let version = try version(store, folderId),
                  let kept = store.keptListings.entries(folderId: folderId, version: version, pass: 0) else {
                tally.renewed += 1
                continue
            }
            tally.reused += 1
            #expect(kept == fresh, "folder \(folderId) after \(step)", sourceLocation: sourceLocation)
        }
        try keepAll(store)
    }

    @Test("a kept listing whose version stayed lists what the store does, after every kind of change")
    func everyKindOfChange() throws {
        let account = try Account()
        let store = account.temp.store
        try keepAll(store)
        let tally = Tally()
        try EveryKindOfChange.run(on: account) { step in try expectCurrentOrRenewed(store, after: step, tally: tally) }
        // Both happened: a check that only ever saw renewed listings would prove nothing.
        #expect(tally.reused > 10 && tally.renewed > 10, "reused \(tally.reused), renewed \(tally.renewed)")
    }

    @Test("a change to a listed message's name, size, dates, stars or pack region, or a new folder, moves the version on")
    func messageColumns() throws {
        let account = try Account()
        let store = account.temp.store
        let ids = try account.fill(3)
        try keepAll(store)
        let tally = Tally()
        let changes = [
            "UPDATE email SET fileName = 'renamed.eml' WHERE id = \(ids[0])",
            "UPDATE email SET sizeBytes = sizeBytes + 1 WHERE id = \(ids[1])",
            "UPDATE email SET dateSent = '2020-01-01 00:00:00.000' WHERE id = \(ids[2])",
            "UPDATE email SET dateReceived = '2020-01-02 00:00:00.000' WHERE id = \(ids[2])",
            "UPDATE email SET isStarred = 1 WHERE id = \(ids[0])",
            "DELETE FROM packedContent WHERE emailId = \(ids[1])",
        ]
        for change in changes {
            let before = try version(store, account.inbox)
            try store.pool.write { db in try db.execute(sql: change) }
            #expect(try version(store, account.inbox) != before, "\(change)")
            try expectCurrentOrRenewed(store, after: change, tally: tally)
        }
        // Writing the values a message has (a sync's flags) changes nothing.
        let before = try version(store, account.inbox)
        try store.pool.write { db in try db.execute(sql: "UPDATE email SET isRead = isRead, isStarred = isStarred") }
        #expect(try version(store, account.inbox) == before)
        let later = try account.temp.folder(account.id, "Later")
        #expect(try version(store, later).map { $0 != 0 } == true)
    }

    @Test("a folder of the kept size lists from its file, renews it after a change, and lists from the store past a damaged one")
    func largeFolder() throws {
        let account = try Account()
        let store = account.temp.store
        let ids = try account.fill(KeptListings.minimumMessages)
        let file = store.keptListings.directory.appendingPathComponent("folder-\(account.inbox)")
        let listed = try store.tree.messages(inFolder: account.inbox)
        #expect(listed.count == KeptListings.minimumMessages)
        let written = try Data(contentsOf: file)
        #expect(try store.tree.messages(inFolder: account.inbox) == listed)
        #expect(try Data(contentsOf: file) == written, "read from the file, not kept again")

        try store.tree.changeFlag(.seen, to: true, emailId: ids[0], context: account.context)
        #expect(try store.tree.messages(inFolder: account.inbox).first { $0.id == ids[0] }?.isRead == true)
        #expect(try Data(contentsOf: file) != written, "kept again at the new version")

        var damaged = try Data(contentsOf: file)
        damaged[damaged.count / 2] ^= 0xff
        try damaged.write(to: file)
        #expect(try store.tree.messages(inFolder: account.inbox).first { $0.id == ids[0] }?.isRead == true)
        #expect(try store.tree.messages(inFolder: account.inbox).count == KeptListings.minimumMessages)
        // A small folder has no file.
        #expect(!FileManager.default.fileExists(atPath: store.keptListings.directory.appendingPathComponent("folder-\(account.projects)").path))
        _ = try store.tree.messages(inFolder: account.projects)
        #expect(!FileManager.default.fileExists(atPath: store.keptListings.directory.appendingPathComponent("folder-\(account.projects)").path))
    }

    @Test("opening the store removes the files of folders gone and partial files; a live folder's stays")
    func staleFilesRemoved() throws {
        let account = try Account()
        let store = account.temp.store
        try keepAll(store)
        let directory = store.keptListings.directory
        let partial = directory.appendingPathComponent("folder-\(account.inbox).partial-1-2")
        try Data([1]).write(to: partial)
        try store.sync.removeFolders(accountId: account.id, keepingIMAPPaths: ["inbox", "trash"])
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(before.contains("folder-\(account.projects)") && before.contains(partial.lastPathComponent))

        let reopened = try MailStore(directory: account.temp.directory)
        let after = try FileManager.default.contentsOfDirectory(atPath: reopened.keptListings.directory.path)
        #expect(Set(after) == ["folder-\(account.inbox)", "folder-\(account.trash)"])
    }
}
