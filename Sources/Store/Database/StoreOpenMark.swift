import GRDB

/// Whether the store file alone holds the store's latest state, kept in the file itself
/// (`PRAGMA user_version`) so that it travels with every copy of it.
///
/// A process that opens the store marks it `open` and checkpoints, so the file on disk says
/// so from then on: its later changes are in the write-ahead log until a checkpoint copies
/// them in. The last process to close it marks it `closed` and checkpoints with TRUNCATE,
/// which leaves the log empty (`MailStore.close`). A file marked open whose log is missing
/// or emptied has lost what only the log held (`WALVerdict`); a file marked closed beside a
/// log full of transactions is beside a log that is not its own.
enum StoreOpenMark: Equatable, Sendable {
    case open
    case closed
    /// No mark: a store from before the mark, or a new file.
    case unknown

    /// "open" and "clsd" in ASCII: values no other use of the field is likely to leave.
    static let openValue: Int32 = 0x6F70_656E
    static let closedValue: Int32 = 0x636C_7364

    init(userVersion: Int32) {
        switch userVersion {
        case Self.openValue: self = .open
        case Self.closedValue: self = .closed
        default: self = .unknown
        }
    }

    /// Writes `mark` (the caller checkpoints to carry it into the file).
    static func write(_ mark: Int32, _ db: Database) throws {
        try db.execute(sql: "PRAGMA user_version = \(mark)")
    }

    static func read(_ db: Database) throws -> StoreOpenMark {
        StoreOpenMark(userVersion: try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0)
    }
}
