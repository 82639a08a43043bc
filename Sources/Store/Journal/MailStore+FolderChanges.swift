import Foundation
import GRDB
import MailCore

extension MailStore {
    /// A folder row that exists only locally yet: a provisional server name no server
    /// lists, so the sync never matches it.
    static func insertLocalFolder(path: String, type: FolderType, context: WriteContext, db: Database) throws -> FolderRecord {
        var folder = FolderRecord(accountId: context.accountId, path: path,
                                  imapPath: "mailfs-creating:\(UUID().uuidString)", type: type, isSelectable: true)
        folder.localState = .creating
        try folder.insert(db)
        return folder
    }

    /// Rewrites `from` and every path below it to start with `to`.
    static func movePaths(accountId: Int64, from: String, to: String, db: Database) throws {
        try db.execute(sql: """
            UPDATE folder SET path = ? || substr(path, ?) WHERE accountId = ? AND (path = ? OR path LIKE ? ESCAPE '\\')
            """, arguments: [to, from.unicodeScalars.count + 1, accountId, from, likePrefix(from)])
    }

    /// `path/%` for LIKE, with LIKE's wildcards escaped.
    static func likePrefix(_ path: String) -> String {
        path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "/%"
    }
}

public enum FolderChangeError: Error, Equatable, Sendable {
    case notEmpty
    case exists
}
