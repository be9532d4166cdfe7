// The system SQLite, for bench-sqlite.
#include <sqlite3.h>
