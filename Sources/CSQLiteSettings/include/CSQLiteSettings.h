// Process-wide SQLite settings. They go through sqlite3_config, which is variadic, so
// Swift cannot call it: this C target does. docs/DECISIONS.md, "SQLite's memory
// statistics are off", says why and what it measured.
#ifndef MAILFS_CSQLITESETTINGS_H
#define MAILFS_CSQLITESETTINGS_H

/// Stops SQLite from counting its memory use. It then takes no process-wide mutex on
/// every allocation, which every connection's threads otherwise queue on. Works only
/// before the process opens its first connection; returns SQLite's result code
/// (SQLITE_MISUSE when it came too late, and nothing changed).
int mailfs_sqlite_stop_memory_statistics(void);

#endif
