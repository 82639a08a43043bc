import GRDB

/// Each folder's listing version: a random number in `folderCount.listingVersion` that
/// triggers replace, in the same transaction, whenever anything a listing of the folder
/// shows changes. A listing kept on disk (`KeptListings`) is used only while the version
/// it was built at is still the folder's: the version says "nothing shown changed since",
/// where a count or a timestamp could come back to an old value (a message removed and
/// another added, a clock set back). Random rather than counted, so a folder id used again
/// after its folder was removed cannot meet a file kept for the old one.
///
/// What a folder's listing shows (`TreeStore.messages(inFolder:)`): its links not
/// `pending = 'leaving'`; of each linked message its name, size, dates, read and starred
/// flags and its region of the pack; and how many folders hold it (st_nlink), which a
/// link of the same message in another folder changes. A region leaving the pack moves
/// the version (a kept one would be read after its space was punched); a region coming
/// does not: a message is packed in the transaction that links it, whose link moved the
/// version already, and a listing without a message's region only makes its OPEN look the
/// region up. That spares an import or a sync a trigger per message. `KeptListingTests`
/// checks, after every kind of change, that a folder whose version stayed lists what it
/// kept. A migration that rebuilds `emailFolder`, `email` or `packedContent` must create these
/// triggers again.
enum ListingVersions {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11-listing-versions") { db in
            try db.execute(sql: """
                ALTER TABLE folderCount ADD COLUMN listingVersion INTEGER NOT NULL DEFAULT 0;
                UPDATE folderCount SET listingVersion = random();
                """ + triggers)
        }
    }

    private static func bump(folder: String) -> String {
        "UPDATE folderCount SET listingVersion = random() WHERE folderId = \(folder);"
    }

    /// Every folder holding `email`: its link count is in each of their listings.
    private static func bump(foldersOf email: String) -> String {
        "UPDATE folderCount SET listingVersion = random() WHERE folderId IN (SELECT folderId FROM emailFolder WHERE emailId = \(email));"
    }

    /// A link update that neither shows nor hides it nor moves it (an `arriving` link
    /// applied, a new UID: the journal makes one for every file `rm`'d or `mv`'d) changes
    /// no listing; neither does a message update that writes the values it had (the
    /// flags of every message a sync reads from the server).
    private static let triggers = """
        CREATE TRIGGER listingVersion_folder_insert AFTER INSERT ON folderCount BEGIN
            \(bump(folder: "NEW.folderId"))
        END;
        CREATE TRIGGER listingVersion_link_insert AFTER INSERT ON emailFolder BEGIN
            \(bump(foldersOf: "NEW.emailId"))
        END;
        CREATE TRIGGER listingVersion_link_delete AFTER DELETE ON emailFolder BEGIN
            \(bump(folder: "OLD.folderId"))
            \(bump(foldersOf: "OLD.emailId"))
        END;
        CREATE TRIGGER listingVersion_link_update AFTER UPDATE OF emailId, folderId, pending ON emailFolder
        WHEN OLD.emailId IS NOT NEW.emailId OR OLD.folderId IS NOT NEW.folderId
             OR (OLD.pending IS \(PendingLink.leaving.sql)) IS NOT (NEW.pending IS \(PendingLink.leaving.sql)) BEGIN
            \(bump(folder: "OLD.folderId"))
            \(bump(foldersOf: "OLD.emailId"))
            \(bump(foldersOf: "NEW.emailId"))
        END;
        CREATE TRIGGER listingVersion_message_update
        AFTER UPDATE OF accountId, fileName, sizeBytes, dateSent, dateReceived, isRead, isStarred ON email
        WHEN OLD.accountId IS NOT NEW.accountId OR OLD.fileName IS NOT NEW.fileName
             OR OLD.sizeBytes IS NOT NEW.sizeBytes OR OLD.dateSent IS NOT NEW.dateSent
             OR OLD.dateReceived IS NOT NEW.dateReceived OR OLD.isRead IS NOT NEW.isRead
             OR OLD.isStarred IS NOT NEW.isStarred BEGIN
            \(bump(foldersOf: "NEW.id"))
        END;
        CREATE TRIGGER listingVersion_packed_delete AFTER DELETE ON packedContent BEGIN
            \(bump(foldersOf: "OLD.emailId"))
        END;
        """
}
