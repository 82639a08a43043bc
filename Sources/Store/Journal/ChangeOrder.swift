import Foundation

/// Which pending journal rows may be applied now, when some wait (a refused change backs
/// off for 5, 15, 45 s; an unreachable server for up to 30 s).
///
/// The journal is applied in order only where order matters: a row waits for every earlier
/// row it depends on that is still waiting, and the others go ahead of it, so a `mkdir` is
/// not held up for a minute behind an APPEND the server keeps refusing. A later row
/// depends on an earlier one when:
/// - both are about the same message (`emailId`): a move before a flag change of the same
///   message, an APPEND before the `rm` of its file, Gmail's trash before dropping the
///   other labels. Each row finds its message through where the earlier one left it.
/// - one is a folder operation and the other involves that folder (as source or target):
///   CREATE before an APPEND or MOVE into the folder, moves out of a folder before its
///   DELETE, a RENAME before what follows in the folder.
/// - both are folder operations on the same folder or on paths where one contains the
///   other (before or after a rename): a parent is created before its child, a rename
///   changes the names below it, and a server name is built from the parent's. Folder
///   operations on unrelated paths do not wait for each other (an `rmdir` refused while
///   the server still has messages there does not hold back a `mkdir` elsewhere).
///
/// Rows of different messages in the same folder do not depend on each other: each names
/// its own message by UID or Message-ID and the server applies them in any order to the
/// same effect. Dependence is transitive through waiting rows: a row that depends on a row
/// that waits for another waits too.
enum ChangeOrder {
    /// The rows that may go now, in the journal's order, and when the first waiting row is
    /// due (nil when none waits). `pending` is in id order.
    static func runnable(_ pending: [JournalChange], now: Date) -> (runnable: [JournalChange], nextDue: Date?) {
        var waiting: [JournalChange] = []
        var runnable: [JournalChange] = []
        for row in pending {
            if row.notBefore > now || waiting.contains(where: { dependsOn(row, $0) }) {
                waiting.append(row)
            } else {
                runnable.append(row)
            }
        }
        let nextDue = waiting.map(\.notBefore).filter { $0 > now }.min()
        return (runnable, nextDue)
    }

    /// Whether `later` must be applied after `earlier`.
    static func dependsOn(_ later: JournalChange, _ earlier: JournalChange) -> Bool {
        if let email = later.emailId, email == earlier.emailId { return true }
        switch (later.kind.isFolderOperation, earlier.kind.isFolderOperation) {
        case (true, true): return later.folderId == earlier.folderId || pathsNest(later, earlier)
        case (false, false): return false
        default: return !Set(later.folders).isDisjoint(with: earlier.folders)
        }
    }

    /// Whether a path of one folder operation is, or is above or below, a path of the
    /// other. A row without paths is taken as related: it keeps its place.
    private static func pathsNest(_ one: JournalChange, _ other: JournalChange) -> Bool {
        let (these, those) = (one.paths, other.paths)
        guard !these.isEmpty, !those.isEmpty else { return true }
        return these.contains { path in
            those.contains { $0 == path || $0.hasPrefix(path + "/") || path.hasPrefix($0 + "/") }
        }
    }
}

extension JournalChange {
    /// The folders the row names: the source and the target, or the folder operated on.
    var folders: [Int64] { [folderId, targetFolderId].compactMap { $0 } }

    /// A folder operation's tree paths: before and after (one of them for CREATE, DELETE).
    var paths: [String] { [oldPath, newPath].compactMap { $0 } }
}

extension ChangeKind {
    var isFolderOperation: Bool {
        switch self {
        case .createFolder, .renameFolder, .deleteFolder: return true
        case .flag, .move, .expunge, .copyFromAll, .archiveToAll, .append: return false
        }
    }
}
