import Foundation
import GRDB

/// Read-only queries that the mounted tree answers from. All are local and fast.
///
/// Each is one statement run with `treeRead`, outside a transaction: SQLite makes a single
/// statement atomic (WAL: it reads one snapshot), and a BEGIN/COMMIT around it would add
/// two statements and a lock round to every FUSE request that reaches the store. Those run
/// once per directory or file are cached statements: preparing one (GRDB's authorizer
/// works out what it reads) cost more than running it.
extension MailStore {
    /// Runs one read statement on a pooled reader, with no transaction around it.
    func treeRead<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.unsafeRead(body)
    }

    /// A `treeRead` of `MessageEntry` rows. The pack's punching pass is read before the
    /// statement runs, so the pack regions it returns open only if no pass began since
    /// (`PackReaders`).
    func messagesRead<T>(_ body: (Database, _ pass: UInt64) throws -> T) throws -> T {
        let pass = pack.readers.pass
        return try treeRead { db in try body(db, pass) }
    }

    /// Builds a folder's listing with the version it has in the same snapshot, and keeps it.
    @discardableResult
    func keepListing(ofFolder folderId: Int64, pass: UInt64) throws -> [MessageEntry] {
        let (state, entries) = try pool.read { db in
            let state = try Self.listingState(ofFolder: folderId, db)
            return (state, try Self.messagesFromStore(inFolder: folderId, db, pass: pass, expected: state?.messages ?? 0))
        }
        if let state { keptListings.keep(entries, folderId: folderId, version: state.version) }
        return entries
    }

    /// A folder's message count (`FolderCounts`) and listing version (`ListingVersions`).
    static func listingState(ofFolder folderId: Int64, _ db: Database) throws -> (messages: Int, version: Int64)? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT messages, listingVersion FROM folderCount WHERE folderId = ?"),
                         arguments: [folderId]).map { ($0[0], $0[1]) }
    }

    // The kept count (`FolderCounts`) sizes the array: growing it to 10,000 entries cost a
    // first listing more in fresh pages than the query for the count.
    static func messagesFromStore(inFolder folderId: Int64, _ db: Database, pass: UInt64 = 0,
                                  expected: Int = 0) throws -> [MessageEntry] {
        try MessageEntry.fetchListing(db.cachedStatement(sql: """
            SELECT \(MessageEntry.columns) FROM emailFolder f JOIN \(MessageEntry.email) ON e.id = f.emailId
            \(MessageEntry.joins)
            WHERE f.folderId = ? AND \(MessageEntry.visible)
            """), arguments: [folderId], pass: pass, expected: expected)
    }

    /// A list of ids bound as one argument (`idListArgument`), so one cached statement
    /// serves any number of them.
    static let idList = "SELECT value FROM json_each(?)"

    static func idListArgument(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }
}
