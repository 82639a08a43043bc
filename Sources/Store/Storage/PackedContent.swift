import Foundation
import GRDB

/// Where each message stored whole keeps its raw bytes: a `packedContent` row (offset and
/// length in the pack, `MessagePack`) for messages stored since the pack exists, a
/// `messageContent` row (the bytes themselves) for those stored before. Stores are never
/// rewritten to move them: both kinds are read alike.
///
/// Deleting a `packedContent` row (by cascade when its message goes) records its region in
/// `packHole`, in the same transaction; `PackHoles` gives the space back later.
enum PackedContent {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v7-packed-content") { db in
            try db.execute(sql: """
                CREATE TABLE packedContent (
                    emailId INTEGER PRIMARY KEY REFERENCES email(id) ON DELETE CASCADE,
                    byteOffset INTEGER NOT NULL,
                    byteCount INTEGER NOT NULL);
                CREATE TABLE packHole (byteOffset INTEGER NOT NULL, byteCount INTEGER NOT NULL);
                CREATE TRIGGER packedContent_hole AFTER DELETE ON packedContent BEGIN
                    INSERT INTO packHole (byteOffset, byteCount) VALUES (OLD.byteOffset, OLD.byteCount);
                END;
                """)
            try AccountStorage.countPackedContent(db)
        }
    }

    /// Appends a new message's bytes to the pack and records where they went. Inside a
    /// `MailStore.writeStoringRaw` transaction only.
    static func store(_ raw: [UInt8], emailId: Int64, pack: MessagePack, db: Database) throws {
        let offset = try raw.withUnsafeBytes { try pack.append($0) }
        try db.cachedStatement(sql: "INSERT INTO packedContent (emailId, byteOffset, byteCount) VALUES (?, ?, ?)")
            .execute(arguments: [emailId, offset, raw.count])
    }

    /// The message's raw bytes, from wherever its store keeps them; nil when it has none
    /// (a message synced without them).
    static func raw(emailId: Int64, pack: MessagePack, db: Database) throws -> [UInt8]? {
        if let region = try packedRegion(emailId: emailId, db: db) {
            return try pack.read(offset: region.offset, length: region.count)
        }
        let statement = try db.cachedStatement(sql: "SELECT raw FROM messageContent WHERE emailId = ?")
        guard let row = try Row.fetchOne(statement, arguments: [emailId]) else { return nil }
        // Copied once, from SQLite's buffer straight into the array.
        return try row.withUnsafeData(atIndex: 0) { data in data.map { [UInt8]($0) } ?? [] }
    }

    /// Where the message's raw bytes are, without reading them; `pass` is the punching pass
    /// under which the caller looks it up (`PackReaders`).
    static func location(emailId: Int64, pass: UInt64, db: Database) throws -> RawLocation? {
        if let region = try packedRegion(emailId: emailId, db: db) {
            return .packed(PackedMessage(offset: region.offset, count: region.count, pass: pass))
        }
        let inDatabase = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM messageContent WHERE emailId = ?)"),
                                           arguments: [emailId]) ?? false
        return inDatabase ? .database : nil
    }

    /// Where the message's bytes are in the pack, if they are there.
    private static func packedRegion(emailId: Int64, db: Database) throws -> (offset: Int64, count: Int)? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT byteOffset, byteCount FROM packedContent WHERE emailId = ?"),
                         arguments: [emailId]).map { (offset: $0[0], count: $0[1]) }
    }
}
