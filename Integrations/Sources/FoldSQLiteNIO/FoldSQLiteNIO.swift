internal import CFoldSQLiteNIO
public import FoldSQLite

/// Fold inside the SQLite that sqlite-nio bundles (Vapor's, Fluent's SQLite driver): the `fold`
/// FTS5 tokenizer and the `fold()` and `fold_fingerprint()` SQL functions on every connection.
///
/// ```swift
/// import FoldSQLiteNIO
/// import SQLiteNIO
///
/// try FoldSQLiteNIO.install()   // once, before the first connection opens
/// let db = try await SQLiteConnection.open(storage: .file(path: "app.sqlite"))
/// _ = try await db.query("CREATE VIRTUAL TABLE titles USING fts5(title, tokenize = 'fold')")
/// _ = try await db.query("INSERT INTO titles VALUES ('Straße in Łódź')")
/// let hits = try await db.query("SELECT title FROM titles WHERE titles MATCH 'lodz'")
/// let folded = try await db.query("SELECT fold('Crème Brûlée') AS f")   // 'creme brulee'
/// ```
///
/// sqlite-nio keeps its connection handle to itself, so ``SQLiteRegistration/register(on:)`` has nothing
/// to take; instead Fold's SQLite extension runs inside every open as an SQLite auto-extension.
/// The tokenizer and functions are the ones ``SQLiteRegistration`` registers on the system SQLite; with
/// sqlite-nio's SQLite (3.47 and later) the tokenizer is FTS5's v2 and takes a locale.
public enum FoldSQLiteNIO {
    /// Makes every sqlite-nio connection opened from now on, in the whole process, register the
    /// `fold` tokenizer and the `fold()` and `fold_fingerprint()` SQL functions. Connections
    /// already open are not changed. Calling it again does nothing, so an app may call it
    /// wherever it configures its database (Vapor: in `configure(_:)` before
    /// `app.databases.use(.sqlite(...))`).
    ///
    /// ```swift
    /// try FoldSQLiteNIO.install()
    /// let db = try await SQLiteConnection.open(storage: .memory)
    /// let rows = try await db.query("SELECT fold_fingerprint() AS f")   // fold4-search-u...
    /// ```
    ///
    /// Throws the SQLite code of sqlite-nio's `sqlite3_auto_extension` when it fails (only when
    /// SQLite cannot initialize itself or allocate). A connection whose registration fails fails
    /// to open, with SQLite's "automatic extension loading failed" and the reason.
    public static func install() throws(FoldSQLiteError) {
        let rc = foldsqlitenio_install()
        guard rc == 0 else {
            throw FoldSQLiteError(code: rc, message: "cannot register Fold as an auto-extension of sqlite-nio's SQLite")
        }
    }
}
