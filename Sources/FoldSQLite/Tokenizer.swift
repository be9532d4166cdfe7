package import CSQLite
package import CFoldSQLite
import Fold

/// What Fold registers on an SQLite connection: the `fold` FTS5 tokenizer and the `fold()` and
/// `fold_fingerprint()` SQL functions, so that an FTS table, its queries and any SQL fold text
/// exactly as `Folder` does outside SQLite. (The loadable extension registers the same.)
///
/// ```swift
/// try SQLiteRegistration.register(on: db)   // db: the connection's sqlite3 *
/// // CREATE VIRTUAL TABLE titles USING fts5(title, tokenize = 'fold')
/// // CREATE VIRTUAL TABLE names  USING fts5(name,  tokenize = 'fold ascii')
/// // SELECT * FROM people WHERE fold(name) = fold('Muller')
/// ```
///
/// The tokenizer's arguments: a preset or tailored profile's name (`search` when there is
/// none), and `typed_diacritics` to let a query word typed with a diacritic find only that
/// diacritic. Tokens are the words of the folded text, each with the byte range of the original
/// that produced it, so `highlight()` and `snippet()` mark `Crème` for `creme` and the whole `ß`
/// for `ss`. A document that is not valid UTF-8 is tokenized between its bad bytes, never
/// rejected. With SQLite 3.47 and later the tokenizer is FTS5's v2 and takes a locale
/// (`locale = 1` tables, `fts5_locale('de', ...)`): a locale naming one of Fold's tailorings
/// (`de`, `tr`, `sv`, `de_AT`, ...) folds that text with the table's profile tailored for the
/// language; any other locale, or none, with the table's profile.
public enum SQLiteRegistration {
    /// The name the tokenizer is registered under.
    public static let tokenizerName = "fold"

    /// The tokenizer argument that keeps a query's typed diacritics (see ``SQLiteRegistration``).
    ///
    /// ```swift
    /// // CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'fold search typed_diacritics')
    /// SQLiteRegistration.typedDiacriticsArgument   // "typed_diacritics"
    /// ```
    public static let typedDiacriticsArgument = "typed_diacritics"

    /// How long a connection Fold opens waits for another connection's lock before it fails
    /// with `SQLITE_BUSY`: 5 seconds (`foldcheck index` and `search` take `--busy-timeout`).
    ///
    /// ```swift
    /// sqlite3_busy_timeout(db, Int32(SQLiteRegistration.defaultBusyTimeout.components.seconds * 1000))
    /// ```
    public static let defaultBusyTimeout: Duration = .seconds(5)

    /// Registers the `fold` tokenizer and the `fold()` and `fold_fingerprint()` SQL functions on
    /// a connection (the `sqlite3 *` of any wrapper over the system SQLite: GRDB's
    /// `db.sqliteConnection`, SQLite.swift's `handle`, a raw handle).
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in try SQLiteRegistration.register(on: db.sqliteConnection!) }
    /// ```
    public static func register(on connection: OpaquePointer) throws(FoldSQLiteError) {
        try registerTokenizer(on: connection)
        try SQLFunctions.register(on: connection)
    }

    /// Registers the `fold` tokenizer alone (``register(on:)`` adds the SQL functions).
    ///
    /// ```swift
    /// try SQLiteRegistration.registerTokenizer(on: db)
    /// ```
    public static func registerTokenizer(on connection: OpaquePointer) throws(FoldSQLiteError) {
        guard let api = cfoldsqlite_fts5_api(connection) else {
            throw FoldSQLiteError(code: SQLITE_ERROR, message: "this SQLite has no FTS5: \(String(cString: sqlite3_errmsg(connection)))")
        }
        try registerTokenizer(fts5API: UnsafeMutableRawPointer(api))
    }

    /// Registers the `fold` tokenizer with an `fts5_api *`, for apps whose SQLite is not the
    /// system one (they look the pointer up with `SELECT fts5(?1)` themselves). FTS5 API
    /// version 2 or later; with version 3 (SQLite 3.47 and later) the v2 tokenizer, which takes
    /// a locale.
    ///
    /// ```swift
    /// try SQLiteRegistration.registerTokenizer(fts5API: apiPointer)
    /// ```
    public static func registerTokenizer(fts5API: UnsafeMutableRawPointer) throws(FoldSQLiteError) {
        try createTokenizer(named: tokenizerName, fts5API: fts5API, userData: nil,
                            v1: fts5_tokenizer(xCreate: tokenizerCreate, xDelete: tokenizerDelete, xTokenize: tokenizerTokenize),
                            v2: cfold_fts5_tokenizer_v2(iVersion: 2, xCreate: tokenizerCreate, xDelete: tokenizerDelete, xTokenize: tokenizerTokenizeV2))
    }

    /// Registers an FTS5 tokenizer named `name` with an `fts5_api *`: its v2 table where the
    /// API is version 3 (SQLite 3.47 and later, which passes locales), else its v1 table
    /// (version 2 or later). Every tokenizer of Fold's registers through here.
    package static func createTokenizer(named name: String, fts5API: UnsafeMutableRawPointer, userData: UnsafeMutableRawPointer?,
                                        v1: fts5_tokenizer, v2: cfold_fts5_tokenizer_v2) throws(FoldSQLiteError) {
        let api = fts5API.assumingMemoryBound(to: fts5_api.self)
        let rc: Int32
        if api.pointee.iVersion >= 3 {
            let v3 = fts5API.assumingMemoryBound(to: cfold_fts5_api_v3.self)
            guard let create = v3.pointee.xCreateTokenizer_v2 else {
                throw FoldSQLiteError(code: SQLITE_ERROR, message: "FTS5 API version \(api.pointee.iVersion) has no v2 tokenizers")
            }
            var table = v2
            rc = create(api, name, userData, &table, nil)
        } else {
            guard api.pointee.iVersion >= 2, let create = api.pointee.xCreateTokenizer else {
                throw FoldSQLiteError(code: SQLITE_ERROR, message: "FTS5 API version \(api.pointee.iVersion) is too old (2 or later)")
            }
            var table = v1
            rc = create(api, name, userData, &table, nil)
        }
        guard rc == SQLITE_OK else { throw FoldSQLiteError(code: rc, message: "cannot register the \(name) tokenizer") }
    }

    /// The tokenizer arguments FTS5 accepts, for messages: the preset profiles' names, the
    /// tailored `search-LANG` ones included.
    public static var validArguments: [String] { (FoldProfile.presets + FoldProfile.tailoredPresets).map(\.name) }

    /// The tokenizer for its arguments (none: `search`), or a message naming the valid ones.
    static func instance(arguments: [String]) -> Result<TokenizerInstance, FoldSQLiteError> {
        var rest = arguments
        let typed = rest.contains(typedDiacriticsArgument)
        rest.removeAll { $0 == typedDiacriticsArgument }
        guard rest.count <= 1 else {
            return .failure(FoldSQLiteError(code: SQLITE_ERROR, message: "fold takes a profile (\(validArguments.joined(separator: ", "))) and \(typedDiacriticsArgument); got \(arguments.joined(separator: " "))"))
        }
        let name = rest.first ?? "search"
        guard let profile = FoldProfile(named: name) else {
            return .failure(FoldSQLiteError(code: SQLITE_ERROR, message: "unknown fold profile '\(name)'; the valid ones are \(validArguments.joined(separator: ", "))"))
        }
        do { return .success(try TokenizerInstance(profile: profile, typedDiacritics: typed)) } catch {
            return .failure(FoldSQLiteError(code: SQLITE_ERROR, message: "\(error)"))
        }
    }

    /// The folder for a tokenizer's arguments (none: `search`), or a message naming the valid ones.
    static func folder(arguments: [String]) -> Result<Folder, FoldSQLiteError> {
        instance(arguments: arguments).map(\.base.folder)
    }
}

/// One `fold` tokenizer instance (one per FTS table and connection), owned by FTS5 through an
/// opaque pointer: the table's analyzer, and one for each locale's language met so far.
final class TokenizerInstance {
    /// What tokenizes for one language: its folder, a `Tokenizer` whose buffers are kept from
    /// row to row, and the typed-diacritics folder when the table asks for it.
    final class Analyzer {
        let folder: Folder
        var tokenizer: Tokenizer
        /// The table's profile with marks and letters kept (case still folded): what a query
        /// word typed with a diacritic must equal.
        let typed: Folder?

        init(_ profile: FoldProfile, typedDiacritics: Bool) throws {
            folder = Folder(profile)
            tokenizer = Tokenizer(folder)
            typed = typedDiacritics ? Folder(profile.typed(keepingDiacritics: true)) : nil
        }
    }

    let base: Analyzer
    let profile: FoldProfile
    let typedDiacritics: Bool
    /// Held while tokenizing: a connection tokenizes one text at a time, but FTS5 does not
    /// promise that every call of one instance comes from one thread.
    let lock = Lock()
    private var byLanguage: [FoldLanguage: Analyzer] = [:]

    init(profile: FoldProfile, typedDiacritics: Bool) throws {
        self.profile = profile
        self.typedDiacritics = typedDiacritics
        base = try Analyzer(profile, typedDiacritics: typedDiacritics)
    }

    /// The analyzer for a locale (`de`, `de_AT`, `de-AT`, `tr.UTF-8`): the table's profile
    /// tailored for its language when Fold has a tailoring for it, else the table's. Call with
    /// `lock` held. Throws what making the tailored folders threw.
    func analyzer(locale: UnsafeBufferPointer<UInt8>) throws -> Analyzer {
        let code = locale.prefix { $0 != UInt8(ascii: "_") && $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "@") }
        guard !code.isEmpty, code.count <= 8,
              let language = FoldLanguage(code: String(decoding: code, as: UTF8.self).lowercased()),
              language != profile.language else { return base }
        if let known = byLanguage[language] { return known }
        // A tailoring of a profile that made a folder always makes one (the same steps, so the
        // same ICU services); should it not, the text fails (an SQLite error), rather than being
        // indexed without its language's rules.
        let made = try Analyzer(profile.tailored(for: language), typedDiacritics: typedDiacritics)
        byLanguage[language] = made
        return made
    }
}

/// FTS5's xCreate: the tokenizer for the arguments, or an error code. FTS5 3.40 reports any failed
/// constructor as "error in tokenizer constructor" (it takes no message from the tokenizer), so
/// `FTSIndex` checks the argument itself first and names the valid ones.
private let tokenizerCreate: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = { _, args, count, out in
    var arguments: [String] = []
    for k in 0..<Int(max(0, count)) {
        if let a = args?[k] { arguments.append(String(cString: a)) }
    }
    switch SQLiteRegistration.instance(arguments: arguments) {
    case .success(let instance):
        out?.pointee = OpaquePointer(Unmanaged.passRetained(instance).toOpaque())
        return SQLITE_OK
    case .failure(let error):
        return error.code
    }
}

private let tokenizerDelete: @convention(c) (OpaquePointer?) -> Void = { instance in
    guard let instance else { return }
    Unmanaged<TokenizerInstance>.fromOpaque(UnsafeRawPointer(instance)).release()
}

typealias TokenCallback = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32) -> Int32

private let tokenizerTokenize: @convention(c) (
    OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, TokenCallback?
) -> Int32 = { instance, context, flags, text, length, token in
    tokenize(instance, context, flags, text, length, nil, 0, token)
}

private let tokenizerTokenizeV2: @convention(c) (
    OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, Int32, TokenCallback?
) -> Int32 = { instance, context, flags, text, length, locale, localeLength, token in
    tokenize(instance, context, flags, text, length, locale, localeLength, token)
}

/// FTS5's flags (fts5.h).
private let tokenizeQuery: Int32 = 0x0001, tokenizeDocument: Int32 = 0x0004, tokenColocated: Int32 = 0x0001

/// One text: each word of the fold with its original byte range. With typed diacritics, a
/// document word whose typed fold differs (`carnê`: `carne` and `carnê`) gets the typed form as a
/// colocated token, and a query word typed with a diacritic becomes its typed form, so it finds
/// only documents that have it.
private func tokenize(_ instance: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ flags: Int32,
                      _ text: UnsafePointer<CChar>?, _ length: Int32, _ locale: UnsafePointer<CChar>?, _ localeLength: Int32,
                      _ token: TokenCallback?) -> Int32 {
    guard let instance, let token else { return SQLITE_MISUSE }
    let tokenizer = Unmanaged<TokenizerInstance>.fromOpaque(UnsafeRawPointer(instance)).takeUnretainedValue()
    guard let text, length > 0 else { return SQLITE_OK }
    let localeBytes = locale.map { UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: Int(max(0, localeLength))) }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: Int(length))
    var rc = SQLITE_OK
    tokenizer.lock.withLock {
        let analyzer: TokenizerInstance.Analyzer
        do { analyzer = try localeBytes.map { try tokenizer.analyzer(locale: $0) } ?? tokenizer.base } catch {
            rc = SQLITE_ERROR
            return
        }
        let typed = flags & (tokenizeQuery | tokenizeDocument) != 0 ? analyzer.typed : nil
        let folder = analyzer.folder
        // The callback's code is kept only when it is not OK: a variable the closure wrote for
        // every token cost a run-time exclusivity check per token (a third of Fold's part of an
        // FTS5 build, in callgrind).
        var failure = SQLITE_OK
        DocumentTokens.forEach(in: bytes, tokenizer: &analyzer.tokenizer) { folded, start, end in
            guard folded.count > 0, folded.count < Int(Int32.max) else { return true }
            let code = emitToken(folded, start: start, end: end, of: bytes, flags: flags, typed: typed, folder: folder, token: token, context: context)
            guard code == SQLITE_OK else {
                failure = code
                return false
            }
            return true
        }
        rc = failure
    }
    return rc
}

/// Hands one token to FTS5's callback: the plain fold, and with typed diacritics its typed form
/// (colocated for a document, instead for a query). Returns the callback's code.
@inline(__always)
private func emitToken(_ folded: UnsafeBufferPointer<UInt8>, start: Int, end: Int, of bytes: UnsafeBufferPointer<UInt8>, flags: Int32,
                       typed: Folder?, folder: Folder, token: TokenCallback, context: UnsafeMutableRawPointer?) -> Int32 {
    func emit(_ word: UnsafeRawBufferPointer, _ tokenFlags: Int32) -> Int32 {
        token(context, tokenFlags, word.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(word.count), Int32(start), Int32(end))
    }
    let plain = UnsafeRawBufferPointer(folded)
    guard let typed, let typedForm = typedForm(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end])), plain: plain, typed: typed, folder: folder) else {
        return emit(plain, 0)
    }
    return typedForm.withUnsafeBytes { typedBytes in
        if flags & tokenizeQuery != 0 { return emit(typedBytes, 0) }
        let code = emit(plain, 0)
        return code == SQLITE_OK ? emit(typedBytes, tokenColocated) : code
    }
}

/// The typed fold of a word's original bytes when it keeps a diacritic the plain fold removes
/// (and folds back to the plain word), else nil. ASCII has none. Both folds replace invalid
/// UTF-8 rather than throw: a token's original bytes are valid (`DocumentTokens` reads a bad
/// sequence as U+FFFD, which is in no word) and `form` is a fold's output, so nothing is replaced
/// and nothing can fail.
func typedForm(_ original: UnsafeRawBufferPointer, plain: UnsafeRawBufferPointer, typed: Folder, folder: Folder) -> [UInt8]? {
    guard original.contains(where: { $0 >= 0x80 }) else { return nil }
    let form = typed.fold(decoding: original)
    guard !form.elementsEqual(plain), folder.fold(decoding: form).elementsEqual(plain) else { return nil }
    return form
}

/// The extension's registration (`CFoldSQLiteExtension`): no Swift error crosses into SQLite;
/// a failure is a code and a message allocated with SQLite's allocator.
@_cdecl("foldsqlite_register_fts5")
func foldsqliteRegisterFTS5(_ api: UnsafeMutableRawPointer?, _ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                            _ allocate: (@convention(c) (Int32) -> UnsafeMutableRawPointer?)?) -> Int32 {
    guard let api else { return SQLITE_ERROR }
    do {
        try SQLiteRegistration.registerTokenizer(fts5API: api)
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

    /// "SQLite error CODE: MESSAGE".
    public var description: String { "SQLite error \(code): \(message)" }
}
