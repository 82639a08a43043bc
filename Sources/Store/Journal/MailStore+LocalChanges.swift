import Foundation
import GRDB

/// Why the store refused a file operation (the tree maps these to errno).
public enum LocalChangeError: Error, Equatable, Sendable {
    /// The message is not (or no longer) where the operation says.
    case notFound
    /// The operation makes no sense here (e.g. an archived message that is in a folder).
    case notPermitted
    /// rm outside trash/ and spam/ on an account with no Trash folder, where deleting for
    /// good was not asked for (`delete_without_trash`).
    case noTrash
}

extension MailStore {
    /// Done rows are kept one minute for the guard's window, then dropped.
    static func pruneDone(_ db: Database, accountId: Int64, now: Date) throws {
        try db.cachedStatement(sql: "DELETE FROM change WHERE accountId = ? AND state = 'done' AND createdAt < ?")
            .execute(arguments: [accountId, now.addingTimeInterval(-120)])
    }
}

extension MessageOperation {
    var isDeletion: Bool {
        switch self {
        case .remove, .removeArchived: return true
        case .move, .archive, .unarchive: return false
        }
    }
}
