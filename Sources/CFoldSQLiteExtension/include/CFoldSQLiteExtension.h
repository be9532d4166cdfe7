// The entry point of Fold's loadable SQLite extension (`make sqlite-extension`): `.load` in the
// sqlite3 shell, APSW, or any SQLite host calls `sqlite3_extension_init` (or
// `sqlite3_foldsqlite_init`), which registers the `fold` FTS5 tokenizer on the connection.
#ifndef CFOLD_SQLITE_EXTENSION_H
#define CFOLD_SQLITE_EXTENSION_H

#include <sqlite3ext.h>

int sqlite3_extension_init(sqlite3 *db, char **error_message, const sqlite3_api_routines *api);
int sqlite3_foldsqlite_init(sqlite3 *db, char **error_message, const sqlite3_api_routines *api);

#endif
