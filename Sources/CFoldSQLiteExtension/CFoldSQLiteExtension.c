// Calls into SQLite go through the host's routines (sqlite3ext.h), so the extension works in a
// host whose SQLite is not the system one (APSW's, sqlite-nio's); the tokenizer itself only uses
// FTS5's callbacks, and the SQL functions' bodies the routines in `host`.
#include "CFoldSQLiteExtension.h"
#include "CFoldSQLite.h"
SQLITE_EXTENSION_INIT1

/// Implemented in Swift (FoldSQLite/Tokenizer.swift): registers the tokenizer with `api`;
/// SQLITE_OK, or an error code with a message allocated by `allocate`.
extern int foldsqlite_register_fts5(void *api, char **error_message, void *(*allocate)(int));

/// Implemented in Swift (FoldSQLiteSnowball/SnowballTokenizer.swift): registers the `snowball`
/// tokenizer (Snowball stemming after `fold`) with `api`, as above.
extern int foldsqlite_register_snowball(void *api, char **error_message, void *(*allocate)(int));

/// Implemented in Swift (FoldSQLite/SQLFunctions.swift): a new state for the SQL functions of one
/// connection, and its release.
extern void *foldsqlite_sql_functions_state(void);
extern void foldsqlite_sql_functions_release(void *state);

static void *allocate_message(int size) { return sqlite3_malloc(size); }

/// The host's routines, filled when the extension is initialized (sqlite3ext.h's names are
/// members of `sqlite3_api`, not constants).
static cfoldsqlite_host host;

#include "../CFoldSQLite/sql_functions.inc"

int sqlite3_foldsqlite_init(sqlite3 *db, char **error_message, const sqlite3_api_routines *routines) {
    SQLITE_EXTENSION_INIT2(routines);
    if (routines == 0) {
        // An auto-extension of an SQLite built without extension loading gets no routines.
        return SQLITE_ERROR;
    }
    host.value_text = sqlite3_value_text;
    host.value_bytes = sqlite3_value_bytes;
    host.value_type = sqlite3_value_type;
    host.result_text = sqlite3_result_text;
    host.result_error = sqlite3_result_error;
    host.result_error_nomem = sqlite3_result_error_nomem;
    host.result_null = sqlite3_result_null;
    fts5_api *api = lookup_fts5_api(db);
    if (api == 0) {
        if (error_message) *error_message = sqlite3_mprintf("fold: this SQLite has no FTS5");
        return SQLITE_ERROR;
    }
    int rc = foldsqlite_register_fts5(api, error_message, allocate_message);
    if (rc != SQLITE_OK) return rc;
    rc = foldsqlite_register_snowball(api, error_message, allocate_message);
    if (rc != SQLITE_OK) return rc;
    rc = register_functions(db, foldsqlite_sql_functions_state(), foldsqlite_sql_functions_release);
    if (rc != SQLITE_OK && error_message) *error_message = sqlite3_mprintf("fold: cannot register the SQL functions (%d)", rc);
    return rc;
}

int sqlite3_extension_init(sqlite3 *db, char **error_message, const sqlite3_api_routines *routines) {
    return sqlite3_foldsqlite_init(db, error_message, routines);
}
