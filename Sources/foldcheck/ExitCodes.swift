import FoldSQLite

/// Exit codes, from sysexits.h.
enum Exit {
    static let ok: Int32 = 0
    static let failures: Int32 = 1     // a vector failed, or find matched no line
    static let usage: Int32 = 64       // EX_USAGE
    static let dataError: Int32 = 65   // EX_DATAERR: invalid UTF-8, a line over --max-line-bytes, a corrupt database
    static let noInput: Int32 = 66     // EX_NOINPUT: a vector file, an input FILE or the database cannot be read; no index
    static let software: Int32 = 70    // EX_SOFTWARE: SQLite failed with an error not listed here
    static let ioError: Int32 = 74     // EX_IOERR: reading input or writing stdout failed; SQLite's disk full or I/O error
    static let temporaryFailure: Int32 = 75   // EX_TEMPFAIL: the database stayed locked past --busy-timeout
    static let noPermission: Int32 = 77       // EX_NOPERM: the database is read-only to us
}

/// An error that ends the run with a message on stderr and an exit code.
struct Failure: Error {
    var message: String
    var code: Int32
}

/// The exit code and the message for an SQLite error: busy or locked 75 (try again), disk full
/// or I/O 74, corrupt 65, cannot open 66, read-only 77, anything else 70.
func failure(for error: FoldSQLiteError) -> Failure {
    let code = error.code & 0xFF
    switch code {
    case 5, 6:  // SQLITE_BUSY, SQLITE_LOCKED
        return Failure(message: "foldcheck: the database is locked by another connection (waited --busy-timeout for it): \(error.message); try again", code: Exit.temporaryFailure)
    case 13:  // SQLITE_FULL
        return Failure(message: "foldcheck: the disk is full: \(error.message); nothing was changed", code: Exit.ioError)
    case 10:  // SQLITE_IOERR
        return Failure(message: "foldcheck: I/O error on the database: \(error.message)", code: Exit.ioError)
    case 11, 26:  // SQLITE_CORRUPT, SQLITE_NOTADB
        return Failure(message: "foldcheck: the database is damaged or is not an SQLite database: \(error.message)", code: Exit.dataError)
    case 14:  // SQLITE_CANTOPEN
        return Failure(message: "foldcheck: \(error.message) (its directory must exist, and be writable: SQLite keeps its journal, or a WAL database's -wal and -shm files, beside it)", code: Exit.noInput)
    case 8, 3, 23:  // SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH
        return Failure(message: "foldcheck: the database cannot be written: \(error.message)", code: Exit.noPermission)
    default:
        return Failure(message: "foldcheck: SQLite error \(code): \(error.message)", code: Exit.software)
    }
}
