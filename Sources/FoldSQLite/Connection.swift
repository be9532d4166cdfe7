internal import CSQLite

/// The few SQLite calls the index helper makes, with errors as ``FoldSQLiteError``.
package struct Connection {
    /// Opens (or creates) a database file with the fold tokenizer registered; close it with
    /// ``close()``.
    package static func open(_ path: String) throws(FoldSQLiteError) -> Connection {
        var db: OpaquePointer? = nil
        let rc = sqlite3_open(path, &db)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw FoldSQLiteError(code: rc, message: "cannot open \(path): \(message)")
        }
        do { try FoldSQLite.registerTokenizer(on: db) } catch {
            sqlite3_close_v2(db)
            throw error
        }
        return Connection(handle: db)
    }

    package func close() { sqlite3_close_v2(handle) }

    package let handle: OpaquePointer

    package init(handle: OpaquePointer) { self.handle = handle }

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

    package func bind(_ index: Int, _ value: String) { sqlite3_bind_text(handle, Int32(index), value, -1, Self.transient) }
    package func bind(_ index: Int, _ value: Int64) { sqlite3_bind_int64(handle, Int32(index), value) }
    package func bind(_ index: Int, bytes: UnsafeRawBufferPointer) {
        sqlite3_bind_text(handle, Int32(index), bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient)
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
