import Foundation
import GRDB

/// What one journal row asks of the server. Each is one IMAP effect on one message or
/// folder; a user operation may need several (a Gmail trash removes every label).
public enum ChangeKind: String, Codable, Sendable {
    /// STORE +FLAGS/-FLAGS of `flag` in every folder holding the message (Gmail: once).
    case flag
    /// UID MOVE from `folderId`/`uid` to `targetFolderId` (COPY + EXPUNGE without MOVE).
    case move
    /// STORE \Deleted + UID EXPUNGE of `folderId`/`uid` (delete for good; Gmail: drop a label).
    case expunge
    /// Gmail: find the message in All Mail by Message-ID and COPY it to `targetFolderId`.
    case copyFromAll
    /// Gmail archive (FR-SYNC-10): UID COPY of `folderId`/`uid` to All Mail, then STORE
    /// \Deleted + UID EXPUNGE in `folderId`: the label goes, the message stays in All Mail
    /// whatever the account's setting for mail expunged from its last visible folder.
    case archiveToAll
    /// APPEND `raw` to `targetFolderId`.
    case append
    case createFolder
    case deleteFolder
    case renameFolder
}

/// The life of a journal row; transitions are decided by `ChangeStateMachine` alone.
public enum ChangeState: String, Codable, Sendable {
    /// Waiting to be applied (or retried at `notBefore`).
    case pending
    /// Claimed by the applier; a row found in this state at start-up was interrupted.
    case applying
    /// A deletion beyond the guard: waits for confirm-deletes or cancel-deletes.
    case held
    /// Applied on the server; kept a while for the guard's 60-second window.
    case done
}

/// One row of the journal of local changes.
public struct JournalChange: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "change"
    public var id: Int64?
    public var accountId: Int64
    public var operation: Int64
    public var kind: ChangeKind
    public var state: ChangeState
    public var isDeletion: Bool
    public var emailId: Int64?
    public var messageId: String?
    public var folderId: Int64?
    public var uid: Int64?
    public var uidValidity: Int64?
    public var targetFolderId: Int64?
    public var placeholderUID: Int64?
    public var flag: String?
    public var value: Bool?
    public var previousValue: Bool?
    public var raw: Data?
    public var oldPath: String?
    public var newPath: String?
    public var attempts: Int
    public var notBefore: Date
    public var lastError: String?
    public var createdAt: Date
    public var interrupted: Bool

    public init(accountId: Int64, kind: ChangeKind, state: ChangeState = .pending, now: Date = Date()) {
        self.accountId = accountId
        operation = 0
        self.kind = kind
        self.state = state
        isDeletion = false
        attempts = 0
        notBefore = now
        createdAt = now
        interrupted = false
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Rows are read without `raw`: an APPEND row holds a whole message, and the applier
    /// reads up to a thousand rows at a time; the one APPEND being applied reads its bytes
    /// with `SyncStore.appendContent`. Updates of a fetched row name their columns, so
    /// they never write the missing `raw` back as NULL.
    public static var databaseSelection: [any SQLSelectable] { [.allColumns(excluding: ["raw"])] }

    /// One row, without `raw`, through a cached statement: the applier reads every row it
    /// settles this way, and preparing the query cost more than running it.
    static func fetchOne(_ db: Database, id: Int64) throws -> JournalChange? {
        let columns = try db.columns(in: databaseTableName).map(\.name).filter { $0 != "raw" }
        let sql = "SELECT \(columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")) FROM change WHERE id = ?"
        return try fetchOne(db.cachedStatement(sql: sql), arguments: [id])
    }

    /// Changes that may be applied in one IMAP command share this key (and are adjacent
    /// in the account's order): same kind, same folders, same flag and value.
    public var batchKey: String? {
        switch kind {
        case .flag: return "flag/\(flag ?? "")/\(value == true)"
        case .move, .expunge, .copyFromAll, .archiveToAll:
            return "\(kind.rawValue)/\(folderId ?? 0)/\(targetFolderId ?? 0)"
        case .append, .createFolder, .deleteFolder, .renameFolder:
            return nil
        }
    }
}

/// A placeholder UID for an association the server has not numbered yet: negative and
/// far below the range UIDVALIDITY resets use (-(2^32) .. -1), unique per journal row.
public enum PlaceholderUID {
    static let base: Int64 = -(1 << 40)

    public static func forChange(_ id: Int64) -> Int64 { base - id }
    public static func isPlaceholder(_ uid: Int64) -> Bool { uid <= base }
}
