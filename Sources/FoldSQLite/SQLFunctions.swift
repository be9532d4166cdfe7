internal import CSQLite
internal import CFoldSQLite
import Fold

/// The SQL functions `fold(text [, profile])` and `fold_fingerprint([profile])`, registered by
/// ``SQLiteRegistration/register(on:)`` and by the loadable extension. Deterministic and innocuous, so
/// they serve expression indexes, generated columns, CHECK constraints and triggers:
///
/// ```sql
/// SELECT fold('Crème Brûlée');                      -- 'creme brulee'
/// SELECT fold('Ærø ©', 'ascii');                    -- 'aero (c)'
/// SELECT fold_fingerprint();                         -- 'fold4-search-u15.0-cldr42-d00b9dd5'
/// CREATE INDEX names_folded ON people (fold(name));
/// SELECT * FROM people WHERE fold(name) = fold(?1);  -- uses the index
/// ```
///
/// NULL in, NULL out. A number is folded as its text; a BLOB as its bytes. Text that is not valid
/// UTF-8 is read with each bad sequence as U+FFFD (as the tokenizer separates words at bad bytes,
/// and as `String(decoding:as:)` does), never an error, so a trigger or generated column never
/// fails on a row. An unknown profile is an SQL error naming the valid ones.
enum SQLFunctions {
    /// The state of one connection's functions: the folders made so far, by profile name.
    final class State {
        private let lock = Lock()
        private var folders: [String: Folder] = [:]

        /// The folder for `name` (nil: `search`), made once; or the error message.
        func folder(_ name: String?) -> Result<Folder, FoldSQLiteError> {
            let key = name ?? "search"
            if let folder = lock.withLock({ folders[key] }) { return .success(folder) }
            guard let profile = FoldProfile(named: key) else {
                return .failure(FoldSQLiteError(code: SQLITE_ERROR, message: "unknown fold profile '\(key)'; the valid ones are \(SQLiteRegistration.validArguments.joined(separator: ", "))"))
            }
            let folder = Folder(profile)
            lock.withLock { folders[key] = folder }
            return .success(folder)
        }
    }

    static func register(on db: OpaquePointer) throws(FoldSQLiteError) {
        let state = Unmanaged.passRetained(State()).toOpaque()
        let rc = cfoldsqlite_register_functions(db, state, { Unmanaged<State>.fromOpaque($0!).release() })
        guard rc == SQLITE_OK else {
            throw FoldSQLiteError(code: rc, message: "cannot register the fold SQL functions: \(String(cString: sqlite3_errmsg(db)))")
        }
    }
}

@_cdecl("foldsqlite_sql_functions_state")
func foldsqliteSQLFunctionsState() -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(SQLFunctions.State()).toOpaque()
}

@_cdecl("foldsqlite_sql_functions_release")
func foldsqliteSQLFunctionsRelease(_ state: UnsafeMutableRawPointer?) {
    guard let state else { return }
    Unmanaged<SQLFunctions.State>.fromOpaque(state).release()
}

/// The body of every Fold SQL function, for any SQLite: `host` holds that SQLite's routines.
@_cdecl("foldsqlite_sql_function")
func foldsqliteSQLFunction(_ host: UnsafePointer<cfoldsqlite_host>?, _ state: UnsafeMutableRawPointer?, _ function: Int32,
                           _ context: OpaquePointer?, _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let host = host?.pointee, let state, let context else { return }
    let functions = Unmanaged<SQLFunctions.State>.fromOpaque(state).takeUnretainedValue()
    func error(_ message: String) {
        var message = message
        message.withUTF8 { host.result_error(context, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), Int32($0.count)) }
    }
    func result(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= Int(Int32.max) else { return error("fold: the result is too long for SQLite") }
        // SQLITE_TRANSIENT: SQLite copies the bytes before we return. An empty text still needs
        // a pointer (NULL would be an SQL NULL).
        let empty: StaticString = ""
        let start = bytes.baseAddress ?? UnsafeRawPointer(empty.utf8Start)
        host.result_text(context, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                         unsafeBitCast(-1, to: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self))
    }
    let arguments = UnsafeBufferPointer(start: values, count: Int(max(0, count)))
    // The profile argument: NULL is an error (a NULL profile is a bug in the query, not "search").
    var profileName: String? = nil
    let profileIndex = Int(function) == CFOLDSQLITE_FOLD ? 1 : 0
    if arguments.count > profileIndex {
        let value = arguments[profileIndex]
        guard host.value_type(value) != SQLITE_NULL, let text = host.value_text(value) else {
            return error("fold: the profile is NULL; the valid ones are \(SQLiteRegistration.validArguments.joined(separator: ", "))")
        }
        profileName = String(decoding: UnsafeBufferPointer(start: text, count: Int(host.value_bytes(value))), as: UTF8.self)
    }
    let folder: Folder
    switch functions.folder(profileName) {
    case .success(let f): folder = f
    case .failure(let e): return error("fold: " + e.message)
    }
    switch Int(function) {
    case CFOLDSQLITE_FOLD_FINGERPRINT:
        var fingerprint = folder.fingerprint
        fingerprint.withUTF8 { result(UnsafeRawBufferPointer($0)) }
    case CFOLDSQLITE_FOLD:
        guard let value = arguments.first, host.value_type(value) != SQLITE_NULL else { return host.result_null(context) }
        guard let text = host.value_text(value) else { return host.result_error_nomem(context) }
        let bytes = UnsafeRawBufferPointer(start: text, count: Int(host.value_bytes(value)))
        do {
            // The fold validates as it goes: valid text is read once.
            try folder.withFoldedUTF8(bytes.bindMemory(to: UInt8.self)) { result(UnsafeRawBufferPointer($0)) }
            return
        } catch {
            // Only InvalidUTF8Error is thrown (`result` throws nothing): read it with U+FFFD.
        }
        var folded = folder.fold(String(decoding: bytes, as: UTF8.self))
        folded.withUTF8 { result(UnsafeRawBufferPointer($0)) }
    default:
        error("fold: unknown function \(function)")
    }
}
