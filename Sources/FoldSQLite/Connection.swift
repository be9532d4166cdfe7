internal import CSQLite

/// The few SQLite calls the index helper makes, with errors as ``FoldSQLiteError``.
package struct Connection {
    /// Opens (or creates, unless `create` is false) a database file with the fold tokenizer
    /// registered and a busy timeout (``SQLiteRegistration/defaultBusyTimeout`` unless given); close it
    /// with ``close()``.
    package static func open(_ path: String, create: Bool = true,
                             busyTimeout: Duration = SQLiteRegistration.defaultBusyTimeout) throws(FoldSQLiteError) -> Connection {
        var db: OpaquePointer? = nil
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw FoldSQLiteError(code: rc, message: "cannot open \(path): \(message)")
        }
        sqlite3_busy_timeout(db, busyTimeout.milliseconds)
        do { try SQLiteRegistration.registerTokenizer(on: db) } catch {
            sqlite3_close_v2(db)
            throw error
        }
        return Connection(handle: db)
    }

    package func close() { sqlite3_close_v2(handle) }

    package let handle: OpaquePointer

    package init(handle: OpaquePointer) { self.handle = handle }

    /// Whether no transaction is open on the connection.
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Runs `body` holding the database's write lock: `BEGIN IMMEDIATE` (waiting up to the busy
    /// timeout for another writer) and `COMMIT`, or `ROLLBACK` when `body` throws. Inside a
    /// transaction the caller opened, a savepoint instead: the caller's transaction decides when
    /// the lock is taken.
    package func withWriteLock<R>(_ body: () throws -> R) throws -> R {
        let own = isAutocommit
        try execute(own ? "BEGIN IMMEDIATE" : "SAVEPOINT fold_write")
        do {
            let result = try body()
            try execute(own ? "COMMIT" : "RELEASE fold_write")
            return result
        } catch {
            // Unwinding: `error` is what the caller must see, and nothing is committed either way.
            // A failing ROLLBACK mostly means SQLite ended the transaction itself (a full disk,
            // an I/O error: "no transaction is active"); closing the connection rolls back
            // anything left. In a caller's transaction, the caller's ROLLBACK or COMMIT decides.
            if own {
                if !isAutocommit { try? execute("ROLLBACK") }
            } else {
                try? execute("ROLLBACK TO fold_write")
                try? execute("RELEASE fold_write")
            }
            throw error
        }
    }

    func error(_ rc: Int32) -> FoldSQLiteError {
        FoldSQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)))
    }

    package func execute(_ sql: String) throws(FoldSQLiteError) {
        var message: UnsafeMutablePointer<CChar>? = nil
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw FoldSQLiteError(code: rc, message: text)
        }
    }

    package func prepare(_ sql: String) throws(FoldSQLiteError) -> Statement {
        var statement: OpaquePointer? = nil
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc) }
        return Statement(connection: self, handle: statement)
    }

    /// The one value of a query's first row, or nil.
    package func scalarText(_ sql: String, _ arguments: [String] = []) throws(FoldSQLiteError) -> String? {
        let s = try prepare(sql)
        for (k, a) in arguments.enumerated() { s.bind(k + 1, a) }
        guard try s.step() else { return nil }
        return s.text(0)
    }
}

/// A prepared statement, finalized when released.
package final class Statement {
    let connection: Connection
    package let handle: OpaquePointer

    init(connection: Connection, handle: OpaquePointer) {
        self.connection = connection
        self.handle = handle
    }

    deinit { sqlite3_finalize(handle) }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds `value` with its byte length, so a NUL inside it is kept.
    package func bind(_ index: Int, _ value: String) {
        var value = value
        value.withUTF8 { bind(index, bytes: UnsafeRawBufferPointer($0)) }
    }
    package func bind(_ index: Int, _ value: Int64) { sqlite3_bind_int64(handle, Int32(index), value) }
    /// Binds UTF-8 bytes as text, whole (NUL bytes included); an empty buffer is the empty
    /// text, never NULL.
    package func bind(_ index: Int, bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            sqlite3_bind_text(handle, Int32(index), "", 0, Self.transient)
            return
        }
        sqlite3_bind_text64(handle, Int32(index), base.assumingMemoryBound(to: CChar.self), sqlite3_uint64(bytes.count), Self.transient, UInt8(SQLITE_UTF8))
    }

    /// Binds another statement's column value as it is (type and bytes unchanged).
    package func bind(_ index: Int, columnOf other: Statement, _ column: Int) {
        sqlite3_bind_value(handle, Int32(index), sqlite3_column_value(other.handle, Int32(column)))
    }

    /// True while there is a row.
    package func step() throws(FoldSQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw connection.error(rc)
    }

    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    package func text(_ column: Int) -> String? {
        guard let p = sqlite3_column_text(handle, Int32(column)) else { return nil }
        let n = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// A column's text as bytes (valid until the next step or reset), or nil for NULL.
    package func bytes(_ column: Int) -> UnsafeRawBufferPointer? {
        guard let p = sqlite3_column_text(handle, Int32(column)) else { return nil }
        return UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(handle, Int32(column))))
    }

    package func int64(_ column: Int) -> Int64 { sqlite3_column_int64(handle, Int32(column)) }
    package var columnCount: Int { Int(sqlite3_column_count(handle)) }
}

/// An SQL identifier, quoted.
package func quoted(_ name: String) -> String { "\"" + doubling("\"", in: name) + "\"" }
/// An SQL string literal.
func literal(_ text: String) -> String { "'" + doubling("'", in: text) + "'" }
/// `text` with each `quote` doubled.
func doubling(_ quote: Character, in text: String) -> String {
    text.split(separator: quote, omittingEmptySubsequences: false).joined(separator: String(repeating: quote, count: 2))
}

extension Duration {
    /// Whole milliseconds, clamped to what `sqlite3_busy_timeout` takes.
    var milliseconds: Int32 {
        let (seconds, attoseconds) = components
        let ms = seconds.multipliedReportingOverflow(by: 1000)
        guard !ms.overflow else { return seconds < 0 ? 0 : Int32.max }
        return Int32(clamping: max(0, ms.partialValue + attoseconds / 1_000_000_000_000_000))
    }
}
