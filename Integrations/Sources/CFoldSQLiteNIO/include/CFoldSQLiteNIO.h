// Fold's tokenizer and SQL functions for sqlite-nio's SQLite. No SQLite header is included here:
// sqlite-nio's and the system's both define `sqlite3`, and Swift sees neither through this module.
#ifndef CFOLD_SQLITE_NIO_H
#define CFOLD_SQLITE_NIO_H

/// Registers Fold's extension as an auto-extension of sqlite-nio's SQLite, so every connection
/// opened afterwards gets the `fold` tokenizer and the `fold()` and `fold_fingerprint()` SQL
/// functions. SQLITE_OK (0), or sqlite-nio's error code. Registering again does nothing.
int foldsqlitenio_install(void);

#endif
