import Foundation
import GRDB
import MailCore

/// Writes the rows of one user operation inside its transaction, with their local
/// effects: associations that leave (hidden at once) and arrive (placeholder UIDs).
///
/// The statements every `rm` or `mv` of a file runs are cached: preparing one that writes
/// `emailFolder` compiles the triggers it fires (the kept counts) with it, which cost more
/// than running it.
struct JournalWriter {
    let db: Database
    let context: WriteContext
    let now: Date
    let state: ChangeState
    /// This deletion is the one the guard starts holding at (none was held before it).
    let tripsGuard: Bool
    private(set) var rows: [JournalChange] = []

    init(db: Database, context: WriteContext, now: Date, deletion: Bool) throws {
        self.db = db
        self.context = context
        self.now = now
        (state, tripsGuard) = deletion ? try Self.guardState(db, context: context, now: now) : (.pending, false)
    }

    /// The mass-deletion guard: once anything is held everything further is; otherwise
    /// deletions beyond `deleteGuard` within 60 s are held. Neither question counts more
    /// rows than it needs: the second stops at `deleteGuard` (the last file of an
    /// `rm` of thousands costs what the first did).
    static func guardState(_ db: Database, context: WriteContext, now: Date) throws -> (ChangeState, trips: Bool) {
        guard context.deleteGuard > 0 else { return (.pending, false) }
        let holding = try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM change WHERE accountId = ? AND state = 'held')
            """), arguments: [context.accountId]) ?? false
        if holding { return (.held, false) }
        let recent = try Int.fetchOne(db.cachedStatement(sql: """
            SELECT COUNT(*) FROM (SELECT 1 FROM change WHERE accountId = ? AND isDeletion = 1 AND createdAt >= ? LIMIT ?)
            """), arguments: [context.accountId, now.addingTimeInterval(-60), context.deleteGuard]) ?? 0
        return recent >= context.deleteGuard ? (.held, true) : (.pending, false)
    }

    /// Inserts a row; the first row of the operation names the operation.
    @discardableResult
    mutating func insert(_ kind: ChangeKind, configure: (inout JournalChange) -> Void) throws -> JournalChange {
        var row = JournalChange(accountId: context.accountId, kind: kind, state: state, now: now)
        configure(&row)
        try row.insert(db)
        row.operation = rows.first?.operation ?? row.id ?? 0
        try row.update(db, columns: ["operation"])
        rows.append(row)
        return row
    }

    /// Hides the message's association with a folder until the server confirms; returns its UID.
    func leave(emailId: Int64, folderId: Int64) throws -> Int64? {
        guard let uid = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT imapUID FROM emailFolder WHERE emailId = ? AND folderId = ? AND pending IS NOT \(PendingLink.leaving.sql)
            """), arguments: [emailId, folderId]) else { return nil }
        try db.cachedStatement(sql: "UPDATE emailFolder SET pending = \(PendingLink.leaving.sql) WHERE emailId = ? AND folderId = ?")
            .execute(arguments: [emailId, folderId])
        return uid
    }

    /// Shows the message in a folder at once, under a placeholder UID tied to `row`.
    mutating func arrive(emailId: Int64, folderId: Int64, row: inout JournalChange) throws {
        guard let id = row.id else { return }
        let placeholder = PlaceholderUID.forChange(id)
        // DELETE then INSERT, not INSERT OR REPLACE: rows a REPLACE removes fire no delete
        // trigger, and the folder counts (FolderCounts) rely on those triggers.
        try db.cachedStatement(sql: "DELETE FROM emailFolder WHERE (emailId = ? AND folderId = ?) OR (folderId = ? AND imapUID = ?)")
            .execute(arguments: [emailId, folderId, folderId, placeholder])
        try db.cachedStatement(sql: "INSERT INTO emailFolder (emailId, folderId, imapUID, pending) VALUES (?, ?, ?, \(PendingLink.arriving.sql))")
            .execute(arguments: [emailId, folderId, placeholder])
        row.placeholderUID = placeholder
        try save(row, columns: ["placeholderUID"])
    }

    /// Writes `columns` of a row of this operation and keeps `rows` current.
    mutating func save(_ row: JournalChange, columns: [String]) throws {
        try row.update(db, columns: columns)
        if let index = rows.firstIndex(where: { $0.id == row.id }) { rows[index] = row }
    }

    /// Imported accounts have no server: their rows apply to the store at once, except
    /// held deletions, which wait for confirm-deletes as anywhere else.
    func finishIfOffline() throws {
        guard context.isOffline, state != .held else { return }
        for row in rows { try JournalFinisher(db: db).finishOffline(row) }
    }

    /// `Archive`, else `Archive (2)`…: a folder path not taken in the account.
    func freeFolderPath(_ name: String) throws -> String {
        try FileNamer.firstFree(name, keepingExtension: false) { candidate in
            try FolderRecord.filter(Column("accountId") == context.accountId && Column("path") == candidate).fetchCount(db) > 0
        }
    }

    /// The folders (id, type) that hold the message visibly.
    func visibleFolders(emailId: Int64) throws -> [(id: Int64, type: FolderType)] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT d.id, d.type FROM emailFolder f JOIN folder d ON d.id = f.folderId
            WHERE f.emailId = ? AND f.pending IS NOT \(PendingLink.leaving.sql) ORDER BY d.id
            """), arguments: [emailId]).map { row in (id: try row.decode(atIndex: 0), type: try row.decode(atIndex: 1)) }
    }

    func folder(ofType type: FolderType) throws -> FolderRecord? {
        try FolderRecord.fetchOne(db.cachedStatement(sql: """
            SELECT * FROM folder WHERE accountId = ? AND type = ? AND isSelectable = 1 ORDER BY id LIMIT 1
            """), arguments: [context.accountId, type])
    }

    func uidValidity(folderId: Int64) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT uidValidity FROM folder WHERE id = ?"), arguments: [folderId])
    }

    func messageId(emailId: Int64) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT messageId FROM email WHERE id = ?"), arguments: [emailId])
    }
}
