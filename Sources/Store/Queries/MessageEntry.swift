import Foundation
import GRDB

/// What a directory listing needs of a message: its name, size, date and link count.
public struct MessageEntry: Sendable, Equatable, FetchableRecord, Decodable {
    public var id: Int64
    public var accountId: Int64
    public var fileName: String
    public var sizeBytes: Int64
    public var dateSent: Date?
    public var dateReceived: Date
    /// Number of server folders holding the message (st_nlink).
    public var folderCount: Int
    public var isRead: Bool
    public var isStarred: Bool

    public var date: Date { dateSent ?? dateReceived }

    /// Columns selected by every listing query, `e` being the email table.
    static let columns = """
        e.id, e.accountId, e.fileName, e.sizeBytes, e.dateSent, e.dateReceived, e.isRead, e.isStarred,
        (SELECT COUNT(*) FROM emailFolder c WHERE c.emailId = e.id AND c.pending IS NOT 'leaving') AS folderCount
        """

    /// The email table as listings read it: through the covering index, never the wide rows.
    static let email = "email e INDEXED BY \(ReadPathIndexes.listing)"

    /// Listings are oldest first (docs/REQUIREMENTS.md §C1), ties broken by id for a stable
    /// order.
    static let order = "ORDER BY COALESCE(e.dateSent, e.dateReceived), e.id"

    /// An association the journal is moving or deleting: hidden at once.
    static let visible = "f.pending IS NOT 'leaving'"
}

/// A thread directory in a listing.
public struct ThreadEntry: Sendable, Equatable, FetchableRecord, Decodable {
    public var id: Int64
    public var accountId: Int64
    public var dirName: String
    public var latestDate: Date
    public var messageCount: Int
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
