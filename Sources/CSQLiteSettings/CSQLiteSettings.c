#include "CSQLiteSettings.h"

#include <sqlite3.h>

int mailfs_sqlite_stop_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
