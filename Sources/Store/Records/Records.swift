import Foundation
import GRDB

/// A mail account in the store: configured (synced from IMAP) or offline (imported).
public struct AccountRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "account"
    public var id: Int64?
    public var name: String
    public var address: String
    public var isOffline: Bool
    public var lastSyncDate: Date?
    public var createdAt: Date

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension AccountRecord {
    /// Read by column, not through `Decodable`: every rm, mv or cp in the tree reads its
    /// account's row, and the keyed decoder cost more than the query.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        name = try row.decode(forColumn: "name")
        address = try row.decode(forColumn: "address")
        isOffline = try row.decode(forColumn: "isOffline")
        lastSyncDate = try row.decode(forColumn: "lastSyncDate")
        createdAt = try row.decode(forColumn: "createdAt")
    }
}

/// The role of a folder (RFC 6154 special use, or custom).
public enum FolderType: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    case inbox, sent, drafts, trash, spam, starred, archive, custom
}

public struct FolderRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "folder"
    public var id: Int64?
    public var accountId: Int64
    public var path: String
    public var imapPath: String
    public var type: FolderType
    public var isSelectable: Bool
    public var uidValidity: Int64?
    public var uidNext: Int64?
    public var lastSyncedUID: Int64
    public var highestModSeq: Int64?
    public var lastSyncDate: Date?
    /// The server's message count, the sync window's start and the folder's own count of
    /// messages at the last sync of the folder that completed (nil until one has, and after
    /// one that did not).
    public var settledMessages: Int?
    public var settledSince: Date?
    public var settledLinks: Int?
    /// A local folder operation not yet applied on the server; the sync engine leaves
    /// such folders alone.
    public var localState: FolderLocalState?

    public init(accountId: Int64, path: String, imapPath: String, type: FolderType, isSelectable: Bool) {
        self.accountId = accountId
        self.path = path
        self.imapPath = imapPath
        self.type = type
        self.isSelectable = isSelectable
        self.lastSyncedUID = 0
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Whether the tree shows the folder: one whose rmdir is not yet applied on the server is
    /// gone from it already. `shownCondition` is the same rule in SQL, for the store's counts
    /// of subfolders; the two must agree.
    public var isShown: Bool { id != nil && localState != .deleting }
    static let shownCondition = "localState IS NOT \(FolderLocalState.deleting.sql)"
}

extension FolderRecord {
    /// Read by column, not through `Decodable`: a GETATTR of a folder, a LOOKUP in it and
    /// every rm or mv read folder rows, and the keyed decoder cost more than the query.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        accountId = try row.decode(forColumn: "accountId")
        path = try row.decode(forColumn: "path")
        imapPath = try row.decode(forColumn: "imapPath")
        type = try row.decode(forColumn: "type")
        isSelectable = try row.decode(forColumn: "isSelectable")
        uidValidity = try row.decode(forColumn: "uidValidity")
        uidNext = try row.decode(forColumn: "uidNext")
        lastSyncedUID = try row.decode(forColumn: "lastSyncedUID")
        highestModSeq = try row.decode(forColumn: "highestModSeq")
        lastSyncDate = try row.decode(forColumn: "lastSyncDate")
        settledMessages = try row.decode(forColumn: "settledMessages")
        settledSince = try row.decode(forColumn: "settledSince")
        settledLinks = try row.decode(forColumn: "settledLinks")
        localState = try row.decode(forColumn: "localState")
    }
}

/// One message of an account, whatever folders it sits in (`SameMessage` decides which
/// incoming messages are this one).
public struct EmailRecord: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "email"
    public var id: Int64?
    public var accountId: Int64
    public var threadId: Int64?
    /// `MessageFingerprint.stored`; nil only for rows stored before fingerprints whose
    /// bytes were never stored whole.
    public var fingerprint: String?
    public var messageId: String?
    public var inReplyTo: String
    public var references: String
    public var fromAddress: String
    public var fromName: String
    public var toAddresses: String
    public var ccAddresses: String
    public var bccAddresses: String
    public var subject: String
    public var dateSent: Date?
    public var dateReceived: Date
    public var isRead: Bool
    public var isStarred: Bool
    public var isDraft: Bool
    public var isAnswered: Bool
    public var isDeleted: Bool
    public var sizeBytes: Int64
    /// The texts of a message synced without its bytes (`PartialContent`). A message whose
    /// bytes are stored has its texts there and nil here: written once, not twice, and the
    /// row stays small for the updates and scans that never read texts (docs/DECISIONS.md,
    /// "A message's texts are stored once").
    public var bodyPlain: String?
    public var bodyHTML: String?
    public var snippet: String
    public var hasAttachments: Bool
    public var fileName: String

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The date users see: the Date header, else the arrival date.
    public var displayDate: Date { dateSent ?? dateReceived }
}

public struct ThreadRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "thread"
    public var id: Int64?
    public var accountId: Int64
    public var dirName: String
    public var subject: String
    public var latestDate: Date
    public var messageCount: Int
    public var unreadCount: Int
    public var participants: String
    public var snippet: String

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

public struct AttachmentRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "attachment"
    public var id: Int64?
    public var emailId: Int64
    public var partId: String
    public var fileName: String
    public var mimeType: String
    public var sizeBytes: Int64
    public var encoding: String
    public var isInline: Bool
    public var contentId: String?
    public var isDownloaded: Bool
    public var cachePath: String?
    public var lastAccess: Date?
    /// False while `sizeBytes` is BODYSTRUCTURE's estimate (the part was never downloaded).
    public var sizeIsExact: Bool

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
