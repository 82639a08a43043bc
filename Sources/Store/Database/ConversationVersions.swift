import GRDB

/// Each thread's conversation version: what `threads/<thread>/conversation.txt` is rendered
/// from changed when the version did. A row per thread in `conversationVersion`, written by
/// triggers in the transaction of the change, with the next number of one sequence over all
/// threads, so the tree finds what changed since it last looked with one indexed range
/// (`TreeStore.conversationChanges(since:)`), however many threads it rendered before.
/// A thread with no row has version 0; rows are keyed by thread id alone and outlive their
/// thread, so a thread id used again starts past every version its old thread had.
///
/// What a conversation shows (`TreeStore.conversationMessages(inThread:)`): the thread's
/// messages not deleted; of each its name, read flag, subject, addresses, dates and stored
/// texts, its raw bytes, and its attachments' names, types and sizes. An update that writes
/// the values a row had (the flags of every message a sync reads) moves nothing. A migration
/// that rebuilds `email`, `attachment`, `packedContent` or `messageContent` must create these
/// triggers again.
enum ConversationVersions {
    static let table = "conversationVersion"

    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v14-conversation-versions") { db in
            try db.execute(sql: """
                CREATE TABLE \(table) (threadId INTEGER PRIMARY KEY, version INTEGER NOT NULL);
                CREATE INDEX \(table)_byVersion ON \(table)(version);
                """ + triggers)
        }
    }

    /// Moves `thread`'s version to the sequence's next, when `thread` is not NULL (a message
    /// not threaded yet belongs to no conversation).
    private static func bump(_ thread: String) -> String {
        """
        INSERT INTO \(table) (threadId, version)
            SELECT t, v FROM (SELECT \(thread) AS t), (SELECT COALESCE(MAX(version), 0) + 1 AS v FROM \(table))
            WHERE t IS NOT NULL
            ON CONFLICT (threadId) DO UPDATE SET version = excluded.version;
        """
    }

    private static func bump(threadOf email: String) -> String {
        bump("(SELECT threadId FROM email WHERE id = \(email))")
    }

    /// The columns of `email` a conversation shows, besides membership (`threadId`,
    /// `isDeleted`).
    private static let shownColumns = [
        "fileName", "isRead", "subject", "fromName", "fromAddress", "toAddresses", "ccAddresses", "dateSent",
        "dateReceived", "bodyPlain", "bodyHTML",
    ]

    /// The attachment columns a conversation shows, besides which message holds it (`emailId`).
    private static let shownAttachmentColumns = ["fileName", "mimeType", "sizeBytes"]

    /// `AFTER UPDATE OF` the columns, `WHEN` one of them holds another value: an update that
    /// writes the values a row had moves nothing.
    private static func updateOf(_ columns: [String], on table: String) -> String {
        "AFTER UPDATE OF \(columns.joined(separator: ", ")) ON \(table) WHEN "
            + columns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
    }

    private static var triggers: String {
        """
        CREATE TRIGGER conversationVersion_message_insert AFTER INSERT ON email WHEN NEW.threadId IS NOT NULL BEGIN
            \(bump("NEW.threadId"))
        END;
        CREATE TRIGGER conversationVersion_message_delete AFTER DELETE ON email WHEN OLD.threadId IS NOT NULL BEGIN
            \(bump("OLD.threadId"))
        END;
        CREATE TRIGGER conversationVersion_message_update
        \(updateOf(["threadId", "isDeleted"] + shownColumns, on: "email")) BEGIN
            \(bump("OLD.threadId"))
            \(bump("NEW.threadId"))
        END;
        CREATE TRIGGER conversationVersion_attachment_insert AFTER INSERT ON attachment BEGIN
            \(bump(threadOf: "NEW.emailId"))
        END;
        CREATE TRIGGER conversationVersion_attachment_delete AFTER DELETE ON attachment BEGIN
            \(bump(threadOf: "OLD.emailId"))
        END;
        CREATE TRIGGER conversationVersion_attachment_update
        \(updateOf(["emailId"] + shownAttachmentColumns, on: "attachment")) BEGIN
            \(bump(threadOf: "OLD.emailId"))
            \(bump(threadOf: "NEW.emailId"))
        END;
        CREATE TRIGGER conversationVersion_packed_delete AFTER DELETE ON packedContent BEGIN
            \(bump(threadOf: "OLD.emailId"))
        END;
        CREATE TRIGGER conversationVersion_content_delete AFTER DELETE ON messageContent BEGIN
            \(bump(threadOf: "OLD.emailId"))
        END;
        """
    }
}
