// Calls into SQLite go through the host's routines (sqlite3ext.h), so the extension works in a
// host whose SQLite is not the system one; the tokenizer itself only uses FTS5's callbacks.
#include "CFoldSQLiteExtension.h"
SQLITE_EXTENSION_INIT1

/// Implemented in Swift (FoldSQLite/Tokenizer.swift): registers the tokenizer with `api`;
/// SQLITE_OK, or an error code with a message allocated by `allocate`.
extern int foldsqlite_register_fts5(void *api, char **error_message, void *(*allocate)(int));

static void *allocate_message(int size) { return sqlite3_malloc(size); }

static fts5_api *fts5_api_of(sqlite3 *db) {
    fts5_api *api = 0;
    sqlite3_stmt *statement = 0;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0) != SQLITE_OK) return 0;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    return api;
}

int sqlite3_foldsqlite_init(sqlite3 *db, char **error_message, const sqlite3_api_routines *routines) {
    SQLITE_EXTENSION_INIT2(routines);
    fts5_api *api = fts5_api_of(db);
    if (api == 0) {
        if (error_message) *error_message = sqlite3_mprintf("fold: this SQLite has no FTS5");
        return SQLITE_ERROR;
    }
    return foldsqlite_register_fts5(api, error_message, allocate_message);
}

int sqlite3_extension_init(sqlite3 *db, char **error_message, const sqlite3_api_routines *routines) {
    return sqlite3_foldsqlite_init(db, error_message, routines);
}
