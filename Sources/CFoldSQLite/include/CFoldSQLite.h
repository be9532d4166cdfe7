// What FoldSQLite must do in C: find a connection's FTS5 API (`SELECT fts5(?1)` with
// `sqlite3_bind_pointer`, which needs a pointer type string SQLite compares by address), the
// FTS5 v2 tokenizer's layout (SQLite 3.47 and later; Debian's header is older), and the SQL
// functions' registration. The tokenizer's callbacks and the functions' bodies are Swift
// (FoldSQLite/Tokenizer.swift, FoldSQLite/SQLFunctions.swift).
#ifndef CFOLD_SQLITE_H
#define CFOLD_SQLITE_H

#include <sqlite3.h>

/// The FTS5 API of `db`, or NULL when the connection's SQLite has no FTS5 (or the lookup
/// failed; the connection's error message then says why).
fts5_api *cfoldsqlite_fts5_api(sqlite3 *db);

/// FTS5's v2 tokenizer (`fts5_tokenizer_v2` of SQLite 3.47's fts5.h): v1's callbacks and a
/// locale for each text (`fts5_locale('de', ...)` in SQL, tables made with `locale = 1`).
typedef struct cfold_fts5_tokenizer_v2 {
    int iVersion;  // 2
    int (*xCreate)(void *userData, const char **arguments, int count, Fts5Tokenizer **out);
    void (*xDelete)(Fts5Tokenizer *);
    int (*xTokenize)(Fts5Tokenizer *, void *context, int flags, const char *text, int length,
                     const char *locale, int localeLength,
                     int (*xToken)(void *context, int tokenFlags, const char *token, int tokenLength,
                                   int start, int end));
} cfold_fts5_tokenizer_v2;

/// `fts5_api` of SQLite 3.47 and later (iVersion 3): version 2's members, then the v2
/// tokenizer's registration.
typedef struct cfold_fts5_api_v3 {
    int iVersion;
    int (*xCreateTokenizer)(fts5_api *, const char *name, void *userData, fts5_tokenizer *, void (*destroy)(void *));
    int (*xFindTokenizer)(fts5_api *, const char *name, void **userData, fts5_tokenizer *);
    int (*xCreateFunction)(fts5_api *, const char *name, void *userData, fts5_extension_function, void (*destroy)(void *));
    int (*xCreateTokenizer_v2)(fts5_api *, const char *name, void *userData, cfold_fts5_tokenizer_v2 *, void (*destroy)(void *));
    int (*xFindTokenizer_v2)(fts5_api *, const char *name, void **userData, cfold_fts5_tokenizer_v2 **);
} cfold_fts5_api_v3;

/// The SQLite routines the SQL functions' bodies call: the system library's for
/// `SQLiteRegistration.register(on:)`, the host's (through `sqlite3_api_routines`) in the loadable
/// extension, so the same Swift code serves any SQLite in the process.
typedef struct cfoldsqlite_host {
    const unsigned char *(*value_text)(sqlite3_value *);
    int (*value_bytes)(sqlite3_value *);
    int (*value_type)(sqlite3_value *);
    void (*result_text)(sqlite3_context *, const char *, int, void (*)(void *));
    void (*result_error)(sqlite3_context *, const char *, int);
    void (*result_error_nomem)(sqlite3_context *);
    void (*result_null)(sqlite3_context *);
} cfoldsqlite_host;

/// The SQL functions, one identifier each (passed to `foldsqlite_sql_function`).
enum {
    CFOLDSQLITE_FOLD = 1,             // fold(text [, profile])
    CFOLDSQLITE_FOLD_FINGERPRINT = 2  // fold_fingerprint([profile])
};

/// Registers `fold(text)`, `fold(text, profile)`, `fold_fingerprint()` and
/// `fold_fingerprint(profile)` on `db` with the system library, deterministic and innocuous.
/// `state` goes to the functions' body; `destroy` is called once on it when the last of the
/// functions is dropped (or at once when registering fails). SQLITE_OK or an error code.
int cfoldsqlite_register_functions(sqlite3 *db, void *state, void (*destroy)(void *));

#endif
