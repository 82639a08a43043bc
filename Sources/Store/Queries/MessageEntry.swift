import Foundation
import GRDB

/// What a directory listing needs of a message: its name, size, date and link count, and
/// where its bytes are in the pack.
public struct MessageEntry: Sendable, Equatable {
    public var id: Int64
    public var accountId: Int64
    public var fileName: String
    public var sizeBytes: Int64
    public var dateSent: Date?
    public var dateReceived: Date
    /// Number of server folders holding the message (st_nlink), 1 for a message in none
    /// (archive/ shows it).
    public var folderCount: Int
    public var isRead: Bool
    public var isStarred: Bool
    /// The message's region of the pack, nil when the pack does not hold it. Read with the
    /// listing because opening a file is what usually follows listing it (`cat`, `grep -r`),
    /// and the open then needs no query of its own.
    public var packed: PackedMessage?

    public var date: Date { dateSent ?? dateReceived }

    init(id: Int64, accountId: Int64, fileName: String, sizeBytes: Int64, dateSent: Date?, dateReceived: Date,
         folderCount: Int, isRead: Bool, isStarred: Bool, packed: PackedMessage?) {
        self.id = id
        self.accountId = accountId
        self.fileName = fileName
        self.sizeBytes = sizeBytes
        self.dateSent = dateSent
        self.dateReceived = dateReceived
        self.folderCount = folderCount
        self.isRead = isRead
        self.isStarred = isStarred
        self.packed = packed
    }

    /// Decoded by position from a row that starts with `columns`: a listing decodes every
    /// message of a directory, and `Decodable`'s keyed decoding cost more than the query
    /// (a cold `find` over threads/ spent a third of its time there). `pass` is the pack's
    /// punching pass read before the statement ran (`MailStore.messagesRead`).
    init(row: Row, pass: UInt64) {
        id = row[0]
        accountId = row[1]
        fileName = row[2]
        sizeBytes = row[3]
        dateSent = (row[4] as StoredDate?)?.date
        dateReceived = (row[5] as StoredDate).date
        isRead = row[6]
        isStarred = row[7]
        folderCount = row[8]
        // hasNull, then plain values: decoding optionals went through GRDB's slower path.
        if !row.hasNull(atIndex: 9) {
            packed = PackedMessage(offset: row[9], count: row[10], pass: pass)
        }
    }

    /// Every entry a statement selecting `columns` returns; `expected` (a count known
    /// beforehand) sizes the array at once.
    static func fetchAll(_ statement: Statement, arguments: StatementArguments = StatementArguments(),
                         pass: UInt64, expected: Int = 0) throws -> [MessageEntry] {
        var entries: [MessageEntry] = []
        entries.reserveCapacity(expected)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try rows.next() { entries.append(MessageEntry(row: row, pass: pass)) }
        return entries
    }

    /// A whole directory's entries, in listing order (`order`): sorted here, in place,
    /// where SQLite's sort of the rows (names included) cost a sixth of a 10,000-message
    /// folder's query and sorting the entries far less. Queries that also limit or group
    /// their rows order in SQL.
    static func fetchListing(_ statement: Statement, arguments: StatementArguments = StatementArguments(),
                             pass: UInt64, expected: Int = 0) throws -> [MessageEntry] {
        var entries = try fetchAll(statement, arguments: arguments, pass: pass, expected: expected)
        entries.sort { ($0.date, $0.id) < ($1.date, $1.id) }
        return entries
    }

    static func fetchOne(_ statement: Statement, arguments: StatementArguments, pass: UInt64) throws -> MessageEntry? {
        try Row.fetchOne(statement, arguments: arguments).map { MessageEntry(row: $0, pass: pass) }
    }

    /// Columns selected by every listing query, `e` being the email table, `p` its row of
    /// the pack and `m` its folder count when it has more than one folder (`joins`).
    static let columns = """
        e.id, e.accountId, e.fileName, e.sizeBytes, e.dateSent, e.dateReceived, e.isRead, e.isStarred,
        COALESCE(m.folders, 1) AS folderCount, p.byteOffset, p.byteCount
        """

    /// How many columns `columns` selects: a query may select more after them.
    static let columnCount = 11

    /// The email table as listings read it: through the covering index, never the wide rows.
    static let email = "email e INDEXED BY \(ReadPathIndexes.listing)"

    /// Joined after `email` by every query selecting `columns`. Joins, not a subquery per
    /// column: the pack's join cost a 10,000-message folder's query well under a
    /// millisecond, two subqueries five (and counting links per message, four more than
    /// the join on `MultiFolderEmails`).
    static let joins = """
        LEFT JOIN packedContent p ON p.emailId = e.id LEFT JOIN \(MultiFolderEmails.table) m ON m.emailId = e.id
        """

    /// Listings are oldest first (docs/REQUIREMENTS.md §C1), ties broken by id for a stable
    /// order: in SQL where a query also limits or groups its rows (search, threads), else
    /// by `fetchListing`.
    static let order = "ORDER BY COALESCE(e.dateSent, e.dateReceived), e.id"

    /// An association the journal is moving or deleting: hidden at once.
    static let visible = "f.pending IS NOT \(PendingLink.leaving.sql)"
}

/// A thread directory in a listing.
public struct ThreadEntry: Sendable, Equatable, FetchableRecord {
    public var id: Int64
    public var accountId: Int64
    public var dirName: String
    public var latestDate: Date
    public var messageCount: Int

    /// Columns selected by every thread query, in the order `init(row:)` reads them.
    static let columns = "id, accountId, dirName, latestDate, messageCount"

    public init(row: Row) {
        id = row[0]
        accountId = row[1]
        dirName = row[2]
        latestDate = (row[3] as StoredDate).date
        messageCount = row[4]
    }
}

/// One row of the per-folder table of `.status`.
public struct FolderStatusRow: Sendable, Equatable, FetchableRecord, Decodable {
    public var path: String
    public var type: String
    public var uidValidity: Int64?
    public var lastSyncDate: Date?
    public var messages: Int
    public var unread: Int
}
