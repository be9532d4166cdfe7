// The system SQLite (Debian: libsqlite3-dev, with FTS5), as a module for FoldSQLite.
#include <sqlite3.h>
