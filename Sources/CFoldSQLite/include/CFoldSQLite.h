// What FoldSQLite must do in C: find a connection's FTS5 API (`SELECT fts5(?1)` with
// `sqlite3_bind_pointer`, which needs a pointer type string SQLite compares by address).
// The tokenizer's callback table is filled in Swift (FoldSQLite/Tokenizer.swift).
#ifndef CFOLD_SQLITE_H
#define CFOLD_SQLITE_H

#include <sqlite3.h>

/// The FTS5 API of `db`, or NULL when the connection's SQLite has no FTS5 (or the lookup
/// failed; the connection's error message then says why).
fts5_api *cfoldsqlite_fts5_api(sqlite3 *db);

#endif
