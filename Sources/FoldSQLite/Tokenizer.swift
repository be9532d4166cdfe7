internal import CSQLite
internal import CFoldSQLite
import Fold

/// Fold inside SQLite's FTS5: the `fold` tokenizer, so that an FTS table and its queries fold
/// text exactly as ``Folder`` does outside SQLite.
///
/// ```swift
/// try FoldSQLite.registerTokenizer(on: db)   // db: the connection's sqlite3 *
/// // CREATE VIRTUAL TABLE titles USING fts5(title, tokenize = 'fold')
/// // CREATE VIRTUAL TABLE names  USING fts5(name,  tokenize = 'fold ascii')
/// ```
///
/// The tokenizer's one argument is a preset profile's name (`search` when there is none).
/// Tokens are the words of the folded text, each with the byte range of the original that
/// produced it, so `highlight()` and `snippet()` mark `Crème` for `creme` and the whole `ß` for
/// `ss`. A document that is not valid UTF-8 is tokenized between its bad bytes, never
/// rejected. FTS5's locale (the v2 tokenizer of SQLite 3.47 and later) is not used: SQLite 3.40
/// has none, and Fold's fold does not depend on a locale.
public enum FoldSQLite {
    /// The name the tokenizer is registered under.
    public static let tokenizerName = "fold"

    /// How long a connection Fold opens waits for another connection's lock before it fails
    /// with `SQLITE_BUSY`: 5 seconds (`foldcheck index` and `search` take `--busy-timeout`).
    ///
    /// ```swift
    /// sqlite3_busy_timeout(db, Int32(FoldSQLite.defaultBusyTimeout.components.seconds * 1000))
    /// ```
    public static let defaultBusyTimeout: Duration = .seconds(5)

    /// Registers the `fold` tokenizer on a connection (the `sqlite3 *` of any wrapper: GRDB's
    /// `db.sqliteConnection`, SQLite.swift's `handle`, a raw handle).
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in try FoldSQLite.registerTokenizer(on: db.sqliteConnection!) }
    /// ```
    public static func registerTokenizer(on connection: OpaquePointer) throws(FoldSQLiteError) {
        guard let api = cfoldsqlite_fts5_api(connection) else {
            throw FoldSQLiteError(code: SQLITE_ERROR, message: "this SQLite has no FTS5: \(String(cString: sqlite3_errmsg(connection)))")
        }
        try registerTokenizer(fts5API: UnsafeMutableRawPointer(api))
    }

    /// Registers the `fold` tokenizer with an `fts5_api *`, for apps whose SQLite is not the
    /// system one (they look the pointer up with `SELECT fts5(?1)` themselves). FTS5 API
    /// version 2 or later.
    ///
    /// ```swift
    /// try FoldSQLite.registerTokenizer(fts5API: apiPointer)
    /// ```
    public static func registerTokenizer(fts5API: UnsafeMutableRawPointer) throws(FoldSQLiteError) {
        let api = fts5API.assumingMemoryBound(to: fts5_api.self)
        guard api.pointee.iVersion >= 2, let create = api.pointee.xCreateTokenizer else {
            throw FoldSQLiteError(code: SQLITE_ERROR, message: "FTS5 API version \(api.pointee.iVersion) is too old (2 or later)")
        }
        var table = fts5_tokenizer(xCreate: tokenizerCreate, xDelete: tokenizerDelete, xTokenize: tokenizerTokenize)
        let rc = create(api, tokenizerName, nil, &table, nil)
        guard rc == SQLITE_OK else { throw FoldSQLiteError(code: rc, message: "cannot register the fold tokenizer") }
    }

    /// The tokenizer arguments FTS5 accepts, for messages: the preset profiles' names, the
    /// tailored `search-LANG` ones included.
    public static var validArguments: [String] { (FoldProfile.presets + FoldProfile.tailoredPresets).map(\.name) }

    /// The folder for a tokenizer's arguments (none: `search`), or a message naming the valid ones.
    static func folder(arguments: [String]) -> Result<Folder, FoldSQLiteError> {
        guard arguments.count <= 1 else {
            return .failure(FoldSQLiteError(code: SQLITE_ERROR, message: "fold takes one argument, a profile (\(validArguments.joined(separator: ", "))); got \(arguments.joined(separator: " "))"))
        }
        let name = arguments.first ?? "search"
        guard let profile = FoldProfile(named: name) else {
            return .failure(FoldSQLiteError(code: SQLITE_ERROR, message: "unknown fold profile '\(name)'; the valid ones are \(validArguments.joined(separator: ", "))"))
        }
        do { return .success(try Folder(profile)) } catch {
            return .failure(FoldSQLiteError(code: SQLITE_ERROR, message: "\(error)"))
        }
    }
}

/// One `fold` tokenizer instance (one per FTS table), owned by FTS5 through an opaque pointer.
final class TokenizerInstance {
    let folder: Folder
    init(folder: Folder) { self.folder = folder }
}

/// FTS5's xCreate: the folder for the arguments, or an error code. FTS5 3.40 reports any failed
/// constructor as "error in tokenizer constructor" (it takes no message from the tokenizer), so
/// `FoldFTSIndex` checks the argument itself first and names the valid ones.
private let tokenizerCreate: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = { _, args, count, out in
    var arguments: [String] = []
    for k in 0..<Int(max(0, count)) {
        if let a = args?[k] { arguments.append(String(cString: a)) }
    }
    switch FoldSQLite.folder(arguments: arguments) {
    case .success(let folder):
        out?.pointee = OpaquePointer(Unmanaged.passRetained(TokenizerInstance(folder: folder)).toOpaque())
        return SQLITE_OK
    case .failure(let error):
        return error.code
    }
}

private let tokenizerDelete: @convention(c) (OpaquePointer?) -> Void = { instance in
    guard let instance else { return }
    Unmanaged<TokenizerInstance>.fromOpaque(UnsafeRawPointer(instance)).release()
}

private let tokenizerTokenize: @convention(c) (
    OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32,
    (@convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32) -> Int32)?
) -> Int32 = { instance, context, _, text, length, token in
    guard let instance, let token else { return SQLITE_MISUSE }
    let tokenizer = Unmanaged<TokenizerInstance>.fromOpaque(UnsafeRawPointer(instance)).takeUnretainedValue()
    guard let text, length > 0 else { return SQLITE_OK }
    var rc = SQLITE_OK
    text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { bytes in
        DocumentTokens.forEach(in: UnsafeBufferPointer(start: bytes, count: Int(length)), folder: tokenizer.folder) { folded, start, end in
            guard folded.count > 0, folded.count < Int(Int32.max) else { return true }
            rc = folded.withMemoryRebound(to: CChar.self) { token(context, 0, $0.baseAddress, Int32(folded.count), Int32(start), Int32(end)) }
            return rc == SQLITE_OK
        }
    }
    return rc
}

/// The extension's registration (`CFoldSQLiteExtension`): no Swift error crosses into SQLite;
/// a failure is a code and a message allocated with SQLite's allocator.
@_cdecl("foldsqlite_register_fts5")
func foldsqliteRegisterFTS5(_ api: UnsafeMutableRawPointer?, _ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                            _ allocate: (@convention(c) (Int32) -> UnsafeMutableRawPointer?)?) -> Int32 {
    guard let api else { return SQLITE_ERROR }
    do {
        try FoldSQLite.registerTokenizer(fts5API: api)
        return SQLITE_OK
    } catch {
        if let message, let allocate {
            let bytes = Array(error.message.utf8) + [0]
            if let buffer = allocate(Int32(bytes.count)) {
                buffer.copyMemory(from: bytes, byteCount: bytes.count)
                message.pointee = buffer.assumingMemoryBound(to: CChar.self)
            }
        }
        return error.code
    }
}

/// An SQLite error with its code and message.
///
/// ```swift
/// catch let error as FoldSQLiteError { print(error.code, error.message) }
/// ```
public struct FoldSQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite's result code (`SQLITE_ERROR`, `SQLITE_INTERRUPT`, ...).
    public let code: Int32
    /// What went wrong.
    public let message: String

    /// An error with a code and a message.
    ///
    /// ```swift
    /// FoldSQLiteError(code: 1, message: "no such table: titles")
    /// ```
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "SQLite error \(code): \(message)" }
}
