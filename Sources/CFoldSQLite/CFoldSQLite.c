#include "CFoldSQLite.h"

fts5_api *cfoldsqlite_fts5_api(sqlite3 *db) {
    fts5_api *api = 0;
    sqlite3_stmt *statement = 0;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0) != SQLITE_OK) return 0;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    return api;
}

/// The system library's routines.
static const cfoldsqlite_host host = {
    sqlite3_value_text, sqlite3_value_bytes, sqlite3_value_type,
    sqlite3_result_text, sqlite3_result_error, sqlite3_result_error_nomem, sqlite3_result_null,
};

#include "sql_functions.inc"

int cfoldsqlite_register_functions(sqlite3 *db, void *state, void (*destroy)(void *)) {
    return register_functions(db, state, destroy);
}
