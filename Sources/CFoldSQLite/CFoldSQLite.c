#include "CFoldSQLite.h"

/// The system library's routines.
static const cfoldsqlite_host host = {
    sqlite3_value_text, sqlite3_value_bytes, sqlite3_value_type,
    sqlite3_result_text, sqlite3_result_error, sqlite3_result_error_nomem, sqlite3_result_null,
};

#include "sql_functions.inc"

fts5_api *cfoldsqlite_fts5_api(sqlite3 *db) { return lookup_fts5_api(db); }

int cfoldsqlite_register_functions(sqlite3 *db, void *state, void (*destroy)(void *)) {
    return register_functions(db, state, destroy);
}
