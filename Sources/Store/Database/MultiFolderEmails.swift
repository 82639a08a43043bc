import GRDB

/// How many folders hold each message that more than one folder holds (a Gmail label, or
/// the same message found in two folders: one inode, `st_nlink` its folders), kept by
/// triggers in the same transaction as the link that changes it. A message absent from the
/// table is in one folder (or none, when only archive/ shows it: the tree shows a link
/// count of at least 1 either way).
///
/// Listings read the count with a join on this table, not by counting links per message:
/// that correlated count was a large part of the query listing a folder. Only shared
/// messages have a row, so an import or a
/// sync, where almost every message arrives in one folder, writes nothing here; each new
/// link costs its message's count (one lookup in `emailFolder_byEmail`) and a lookup here.
///
/// Counted like `FolderCounts`: links not `pending = 'leaving'` (`FolderCountsTests`
/// checks the triggers against a recount after every kind of change). A migration that
/// rebuilds `emailFolder` must create these triggers again.
enum MultiFolderEmails {
    static let table = "multiFolderEmail"

    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9-multi-folder-emails") { db in
            try db.execute(sql: createTable + "INSERT INTO \(table) (emailId, folders) \(recountQuery);\n" + triggers)
        }
    }

    // No foreign key to `email`: when a message is deleted its links go by cascade, and
    // the link triggers remove its row (a refresh may insert it again while the cascade
    // still holds two of its links, which a foreign key would refuse).
    private static let createTable = """
        CREATE TABLE \(table) (
            emailId INTEGER PRIMARY KEY,
            folders INTEGER NOT NULL);

        """

    /// The rows from the links themselves: the migration's starting point, and what the
    /// tests compare the triggers' work with.
    static let recountQuery = """
        SELECT emailId, COUNT(*) AS folders FROM emailFolder WHERE pending IS NOT \(PendingLink.leaving.sql)
        GROUP BY emailId HAVING COUNT(*) > 1 ORDER BY emailId
        """

    /// Puts `email`'s row back from its links: present with its count when more than one
    /// folder holds it, absent otherwise. Delete, then a plain insert: a conflict clause
    /// inside a trigger gives way to the one of the statement that fired it.
    private static func refresh(_ email: String) -> String {
        """
        DELETE FROM \(table) WHERE emailId = \(email);
            INSERT INTO \(table) (emailId, folders)
            SELECT \(email), n FROM (SELECT COUNT(*) AS n FROM emailFolder
                                     WHERE emailId = \(email) AND pending IS NOT \(PendingLink.leaving.sql)) WHERE n > 1;
        """
    }

    /// An update that neither hides nor shows a link nor gives it to another message (an
    /// `arriving` link applied, a new UID) runs nothing here: the journal makes such updates
    /// for every file `rm`'d or `mv`'d.
    private static let triggers = """
        CREATE TRIGGER multiFolderEmail_link_insert AFTER INSERT ON emailFolder
        WHEN NEW.pending IS NOT \(PendingLink.leaving.sql) BEGIN
            \(refresh("NEW.emailId"))
        END;
        CREATE TRIGGER multiFolderEmail_link_delete AFTER DELETE ON emailFolder
        WHEN OLD.pending IS NOT \(PendingLink.leaving.sql) BEGIN
            \(refresh("OLD.emailId"))
        END;
        CREATE TRIGGER multiFolderEmail_link_shown_or_hidden AFTER UPDATE OF pending ON emailFolder
        WHEN OLD.emailId IS NEW.emailId AND (OLD.pending IS \(PendingLink.leaving.sql)) IS NOT (NEW.pending IS \(PendingLink.leaving.sql)) BEGIN
            \(refresh("NEW.emailId"))
        END;
        CREATE TRIGGER multiFolderEmail_link_moved AFTER UPDATE OF emailId ON emailFolder
        WHEN OLD.emailId IS NOT NEW.emailId BEGIN
            \(refresh("OLD.emailId"))
            \(refresh("NEW.emailId"))
        END;
        """
}
