import CSQLiteSettings

/// SQLite settings that hold for the whole process and must come before its first
/// connection: `MailStore.init` applies them before it opens anything.
enum SQLiteProcessSettings {
    /// Debian's SQLite counts every allocation under one process-wide mutex, on which the
    /// store's writer, the full-text index's writer and the readers all queue: turning the
    /// count off made an import faster (docs/DECISIONS.md, "SQLite's memory statistics are
    /// off"). mailfs never reads the count. False when
    /// the process had opened a connection before (a test using GRDB directly): SQLite
    /// then keeps counting, which costs only speed.
    static let applied: Bool = mailfs_sqlite_stop_memory_statistics() == 0
}
