import GRDB

/// Each folder's number of messages and of unread messages, kept by triggers in the same
/// transaction as the change that moves them, so `.status` and the mount's banner read a
/// row per folder instead of counting links. Counting read every folder link (and the
/// unread index) from disk on a cold start, which was most of a large store's start-up:
/// the link pages lie scattered through the file.
///
/// What is counted is what a listing shows: links not `pending = 'leaving'`, and of those
/// the ones whose message is unread (`FolderCountsTests` checks the triggers against a
/// recount after every kind of change). A migration that rebuilds `emailFolder` or `email`
/// must create these triggers again.
enum FolderCounts {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5-folder-counts") { db in
            try db.execute(sql: createTable + recount + triggers)
        }
    }

    private static let createTable = """
        CREATE TABLE folderCount (
            folderId INTEGER PRIMARY KEY REFERENCES folder(id) ON DELETE CASCADE,
            messages INTEGER NOT NULL DEFAULT 0,
            unread INTEGER NOT NULL DEFAULT 0);

        """

    /// The counts from the links themselves: the migration's starting point, and what the
    /// tests compare the triggers' work with.
    static let recountQuery = """
        SELECT d.id AS folderId,
               (SELECT COUNT(*) FROM emailFolder f WHERE f.folderId = d.id AND f.pending IS NOT \(PendingLink.leaving.sql)) AS messages,
               (SELECT COUNT(*) FROM emailFolder f JOIN email e ON e.id = f.emailId
                WHERE f.folderId = d.id AND f.pending IS NOT \(PendingLink.leaving.sql) AND e.isRead = 0) AS unread
        FROM folder d ORDER BY d.id
        """

    private static let recount = "INSERT INTO folderCount (folderId, messages, unread) \(recountQuery);\n"

    /// A link's share of the unread count, read while its message still exists. When a
    /// message is deleted, its links go by cascade after its row: `message_delete` takes
    /// their unread share first, and the link triggers then find no message (0).
    private static func unread(_ link: String) -> String {
        "COALESCE((SELECT isRead = 0 FROM email WHERE id = \(link).emailId), 0)"
    }

    private static let triggers = """
        CREATE TRIGGER folderCount_folder_insert AFTER INSERT ON folder BEGIN
            INSERT INTO folderCount (folderId) VALUES (NEW.id);
        END;
        CREATE TRIGGER folderCount_link_insert AFTER INSERT ON emailFolder
        WHEN NEW.pending IS NOT \(PendingLink.leaving.sql) BEGIN
            UPDATE folderCount SET messages = messages + 1, unread = unread + \(unread("NEW"))
            WHERE folderId = NEW.folderId;
        END;
        CREATE TRIGGER folderCount_link_delete AFTER DELETE ON emailFolder
        WHEN OLD.pending IS NOT \(PendingLink.leaving.sql) BEGIN
            UPDATE folderCount SET messages = messages - 1, unread = unread - \(unread("OLD"))
            WHERE folderId = OLD.folderId;
        END;
        CREATE TRIGGER folderCount_link_update AFTER UPDATE OF emailId, folderId, pending ON emailFolder BEGIN
            UPDATE folderCount SET messages = messages - 1, unread = unread - \(unread("OLD"))
            WHERE folderId = OLD.folderId AND OLD.pending IS NOT \(PendingLink.leaving.sql);
            UPDATE folderCount SET messages = messages + 1, unread = unread + \(unread("NEW"))
            WHERE folderId = NEW.folderId AND NEW.pending IS NOT \(PendingLink.leaving.sql);
        END;
        CREATE TRIGGER folderCount_message_read AFTER UPDATE OF isRead ON email
        WHEN OLD.isRead IS NOT NEW.isRead BEGIN
            UPDATE folderCount SET unread = unread + (CASE WHEN NEW.isRead = 0 THEN 1 ELSE -1 END)
            WHERE folderId IN (SELECT folderId FROM emailFolder WHERE emailId = NEW.id AND pending IS NOT \(PendingLink.leaving.sql));
        END;
        CREATE TRIGGER folderCount_message_delete BEFORE DELETE ON email
        WHEN OLD.isRead = 0 BEGIN
            UPDATE folderCount SET unread = unread - 1
            WHERE folderId IN (SELECT folderId FROM emailFolder WHERE emailId = OLD.id AND pending IS NOT \(PendingLink.leaving.sql));
        END;
        """
}
