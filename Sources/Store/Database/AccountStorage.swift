import GRDB

/// Each account's stored message bytes (raw messages plus their text and HTML bodies), kept
/// by triggers in the transaction that adds or removes them, so `.status` reads one row
/// instead of summing every message: the sums read the whole store, seconds on a cold
/// cache for a large account.
///
/// When a message is deleted, its raw bytes go by cascade after its row: the message's
/// delete trigger takes them off first, and the raw trigger then finds no message (no
/// account row to change). Raw bytes are in `messageContent` (stores from before the pack)
/// or in the pack, counted from `packedContent` (`PackedContent`). `StorageUseTests` checks
/// the triggers against a recount.
enum AccountStorage {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5-account-storage") { db in
            try db.execute(sql: createTable + "INSERT INTO accountStorage (accountId, messageBytes) \(recount(packed: false));\n"
                           + triggers)
        }
    }

    /// Part of the pack's migration: packed bytes count as raw bytes did.
    static func countPackedContent(_ db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER accountStorage_message_delete;
            CREATE TRIGGER accountStorage_message_delete BEFORE DELETE ON email BEGIN
                UPDATE accountStorage
                SET messageBytes = messageBytes - \(bodies("OLD"))
                    - COALESCE((SELECT \(blobBytes("raw")) FROM messageContent WHERE emailId = OLD.id), 0)
                    - COALESCE((SELECT byteCount FROM packedContent WHERE emailId = OLD.id), 0)
                WHERE accountId = OLD.accountId;
            END;
            CREATE TRIGGER accountStorage_packed_insert AFTER INSERT ON packedContent BEGIN
                UPDATE accountStorage SET messageBytes = messageBytes + NEW.byteCount WHERE accountId = \(rawAccount("NEW"));
            END;
            CREATE TRIGGER accountStorage_packed_delete AFTER DELETE ON packedContent BEGIN
                UPDATE accountStorage SET messageBytes = messageBytes - OLD.byteCount WHERE accountId = \(rawAccount("OLD"));
            END;
            """)
    }

    private static let createTable = """
        CREATE TABLE accountStorage (
            accountId INTEGER PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
            messageBytes INTEGER NOT NULL DEFAULT 0);

        """

    /// A text column's bytes: `LENGTH` of TEXT counts characters.
    private static func bytes(_ text: String) -> String {
        "COALESCE(LENGTH(CAST(\(text) AS BLOB)), 0)"
    }

    /// A BLOB's bytes, by plain `LENGTH`, which SQLite reads from the record header
    /// without loading the blob.
    private static func blobBytes(_ blob: String) -> String {
        "COALESCE(LENGTH(\(blob)), 0)"
    }

    private static func bodies(_ message: String) -> String {
        "\(bytes("\(message).bodyPlain")) + \(bytes("\(message).bodyHTML"))"
    }

    /// The figures from the messages themselves: the migration's starting point, and what
    /// the tests compare the triggers' work with.
    static let recountQuery = recount(packed: true)

    /// `packed`: whether the store has the pack's table yet (the v5 migration ran before).
    private static func recount(packed: Bool) -> String {
        let packedBytes = packed ? """
            + (SELECT COALESCE(SUM(p.byteCount), 0) FROM packedContent p JOIN email e ON e.id = p.emailId
                WHERE e.accountId = a.id)
            """ : ""
        return """
            SELECT a.id AS accountId,
                   (SELECT COALESCE(SUM(\(blobBytes("c.raw"))), 0) FROM messageContent c JOIN email e ON e.id = c.emailId
                    WHERE e.accountId = a.id)
                 \(packedBytes)
                 + (SELECT COALESCE(SUM(\(bodies("e"))), 0) FROM email e WHERE e.accountId = a.id) AS messageBytes
            FROM account a ORDER BY a.id
            """
    }

    private static func rawAccount(_ content: String) -> String {
        "(SELECT accountId FROM email WHERE id = \(content).emailId)"
    }

    private static let triggers = """
        CREATE TRIGGER accountStorage_account_insert AFTER INSERT ON account BEGIN
            INSERT INTO accountStorage (accountId) VALUES (NEW.id);
        END;
        CREATE TRIGGER accountStorage_message_insert AFTER INSERT ON email BEGIN
            UPDATE accountStorage SET messageBytes = messageBytes + \(bodies("NEW")) WHERE accountId = NEW.accountId;
        END;
        CREATE TRIGGER accountStorage_message_update AFTER UPDATE OF bodyPlain, bodyHTML, accountId ON email BEGIN
            UPDATE accountStorage SET messageBytes = messageBytes - \(bodies("OLD")) WHERE accountId = OLD.accountId;
            UPDATE accountStorage SET messageBytes = messageBytes + \(bodies("NEW")) WHERE accountId = NEW.accountId;
        END;
        CREATE TRIGGER accountStorage_message_delete BEFORE DELETE ON email BEGIN
            UPDATE accountStorage
            SET messageBytes = messageBytes - \(bodies("OLD"))
                - COALESCE((SELECT \(blobBytes("raw")) FROM messageContent WHERE emailId = OLD.id), 0)
            WHERE accountId = OLD.accountId;
        END;
        CREATE TRIGGER accountStorage_raw_insert AFTER INSERT ON messageContent BEGIN
            UPDATE accountStorage SET messageBytes = messageBytes + \(blobBytes("NEW.raw")) WHERE accountId = \(rawAccount("NEW"));
        END;
        CREATE TRIGGER accountStorage_raw_update AFTER UPDATE OF raw ON messageContent BEGIN
            UPDATE accountStorage SET messageBytes = messageBytes - \(blobBytes("OLD.raw")) + \(blobBytes("NEW.raw"))
            WHERE accountId = \(rawAccount("NEW"));
        END;
        CREATE TRIGGER accountStorage_raw_delete AFTER DELETE ON messageContent BEGIN
            UPDATE accountStorage SET messageBytes = messageBytes - \(blobBytes("OLD.raw")) WHERE accountId = \(rawAccount("OLD"));
        END;
        """
}
