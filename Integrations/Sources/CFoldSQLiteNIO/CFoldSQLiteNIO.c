// Fold's loadable extension (Sources/CFoldSQLiteExtension), compiled a second time for the SQLite
// that sqlite-nio bundles. That SQLite is built with SQLITE_OMIT_LOAD_EXTENSION, so it cannot
// load the extension, and it calls auto-extensions with no routines (pApi == NULL); its symbols
// are all renamed `sqlite_nio_sqlite3_*`, and it keeps its connection handle to itself. So this
// file builds the routines table the extension expects from those renamed symbols and registers
// the extension's entry point as an auto-extension: SQLite runs it inside every open, after
// FTS5 is registered.
//
// The extension's C is included, not copied, so both builds stay one text. Renamed here so that
// nothing collides with the loadable extension's symbols if both are ever in one process:
// - `sqlite3_api`, the global sqlite3ext.h routes every call through (its macros name it, and
//   the preprocessor rescans them, so they reach this file's global);
// - the two entry points, which are public symbols of the extension.
#define sqlite3_api foldsqlitenio_api
#define sqlite3_foldsqlite_init foldsqlitenio_extension_init
#define sqlite3_extension_init foldsqlitenio_unused_init
#include "../../../Sources/CFoldSQLiteExtension/CFoldSQLiteExtension.c"

#include "CFoldSQLiteNIO.h"

// sqlite-nio's routines, by their renamed names. Its header (sqlite_nio_sqlite3.h) cannot be
// included beside the system <sqlite3.h> the extension uses (same types and macros), so the
// prototypes are declared here; the initializers of `routines` check each one against the
// member's type in sqlite3_api_routines. Only the types' names are shared between the two
// SQLites, and they are opaque.
extern int sqlite_nio_sqlite3_auto_extension(void (*entry)(void));
extern int sqlite_nio_sqlite3_prepare_v2(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
extern int sqlite_nio_sqlite3_bind_pointer(sqlite3_stmt *, int, void *, const char *, void (*)(void *));
extern int sqlite_nio_sqlite3_step(sqlite3_stmt *);
extern int sqlite_nio_sqlite3_finalize(sqlite3_stmt *);
extern char *sqlite_nio_sqlite3_mprintf(const char *, ...);
extern void *sqlite_nio_sqlite3_malloc(int);
extern void sqlite_nio_sqlite3_free(void *);
extern void *sqlite_nio_sqlite3_user_data(sqlite3_context *);
extern int sqlite_nio_sqlite3_create_function_v2(
    sqlite3 *, const char *, int, int, void *,
    void (*)(sqlite3_context *, int, sqlite3_value **),
    void (*)(sqlite3_context *, int, sqlite3_value **),
    void (*)(sqlite3_context *),
    void (*)(void *));
extern const unsigned char *sqlite_nio_sqlite3_value_text(sqlite3_value *);
extern int sqlite_nio_sqlite3_value_bytes(sqlite3_value *);
extern int sqlite_nio_sqlite3_value_type(sqlite3_value *);
extern void sqlite_nio_sqlite3_result_text(sqlite3_context *, const char *, int, void (*)(void *));
extern void sqlite_nio_sqlite3_result_error(sqlite3_context *, const char *, int);
extern void sqlite_nio_sqlite3_result_error_nomem(sqlite3_context *);
extern void sqlite_nio_sqlite3_result_null(sqlite3_context *);

/// The routines the extension calls, and only those: every `sqlite3_*` name in
/// CFoldSQLiteExtension.c and CFoldSQLite/sql_functions.inc. A member left out is NULL, and the
/// extension would crash calling it; a routine added to the extension must be added here (the
/// tests reach every one but mprintf, which only failure paths use).
static const sqlite3_api_routines routines = {
    .prepare_v2 = sqlite_nio_sqlite3_prepare_v2,
    .bind_pointer = sqlite_nio_sqlite3_bind_pointer,
    .step = sqlite_nio_sqlite3_step,
    .finalize = sqlite_nio_sqlite3_finalize,
    .mprintf = sqlite_nio_sqlite3_mprintf,
    .malloc = sqlite_nio_sqlite3_malloc,
    .free = sqlite_nio_sqlite3_free,
    .user_data = sqlite_nio_sqlite3_user_data,
    .create_function_v2 = sqlite_nio_sqlite3_create_function_v2,
    .value_text = sqlite_nio_sqlite3_value_text,
    .value_bytes = sqlite_nio_sqlite3_value_bytes,
    .value_type = sqlite_nio_sqlite3_value_type,
    .result_text = sqlite_nio_sqlite3_result_text,
    .result_error = sqlite_nio_sqlite3_result_error,
    .result_error_nomem = sqlite_nio_sqlite3_result_error_nomem,
    .result_null = sqlite_nio_sqlite3_result_null,
};

/// The auto-extension: SQLite calls it inside every open. sqlite-nio passes no routines (it omits
/// extension loading); should a later build pass them, they are used instead of ours.
///
/// Each call assigns the extension's globals (`foldsqlitenio_api`, its `host` table), as every
/// loadable extension does on each load; the values are the same every time.
static int entry(sqlite3 *db, char **error_message, const sqlite3_api_routines *thunk) {
    return foldsqlitenio_extension_init(db, error_message, thunk ? thunk : &routines);
}

int foldsqlitenio_install(void) {
    // SQLite's prototype takes `void (*)(void)` and calls it with the entry's real signature.
    // A second registration of the same pointer is a no-op (SQLite keeps a list without repeats).
    return sqlite_nio_sqlite3_auto_extension((void (*)(void))entry);
}
