#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import CSQLite
internal import CFoldSQLite
import Fold
import FoldSQLite
import FoldSnowball

extension SQLiteRegistration {
    /// The name the Snowball wrapper tokenizer is registered under.
    ///
    /// ```swift
    /// SQLiteRegistration.snowballTokenizerName   // "snowball"
    /// ```
    public static let snowballTokenizerName = "snowball"

    /// The wrapper argument that drops the languages' stop words (folded by the wrapped
    /// tokenizer, so `für` and `fur` are both dropped after `fold`).
    ///
    /// ```swift
    /// // tokenize = 'snowball german stopwords fold'
    /// SQLiteRegistration.stopWordsArgument   // "stopwords"
    /// ```
    public static let stopWordsArgument = "stopwords"

    /// Registers the `snowball` FTS5 tokenizer: Snowball stemming after another tokenizer, Fold's
    /// `fold` by default, written as users of the fts5-snowball extension write it: languages
    /// first (Snowball names or ISO codes, tried in order: the first whose stemmer changes a
    /// word gives its stem), then `stopwords` to drop their stop words, then the wrapped
    /// tokenizer and its arguments. (The loadable extension registers it too.)
    ///
    /// ```swift
    /// try SQLiteRegistration.register(on: db)           // fold, fold(), fold_fingerprint()
    /// try SQLiteRegistration.registerSnowball(on: db)
    /// // CREATE VIRTUAL TABLE docs  USING fts5(body, tokenize = 'snowball german fold')
    /// // CREATE VIRTUAL TABLE names USING fts5(name, tokenize = 'snowball french stopwords fold ascii')
    /// // CREATE VIRTUAL TABLE mixed USING fts5(body, tokenize = 'snowball spanish english fold', locale = 1)
    /// ```
    ///
    /// What a table gets:
    /// - A document word is indexed as its stem, with the unstemmed (folded) word beside it at
    ///   the same position, so a prefix query (`runni*`, `hause*`) finds `running` and `Häuser`
    ///   although their stems are `run` and `haus`; a query word is stemmed, a prefix query's
    ///   last word is not. (So a query's stem also finds a document's word that is that stem
    ///   unstemmed: `accidental`, stem `accident`, finds `accident`, whose own stem is `accid`.)
    /// - Each token keeps the wrapped tokenizer's byte range, so `highlight()` marks `Running`.
    /// - With `stopwords`, the languages' Snowball stop words are dropped from documents and
    ///   queries (not from prefix queries); the list is tokenized by the wrapped tokenizer, so it
    ///   is folded exactly as the text is.
    /// - With SQLite 3.47 and later, a row's or a query's FTS5 locale (`fts5_locale('de', ...)`,
    ///   tables with `locale = 1`) picks the stemmer when it names a Snowball language, and is
    ///   passed on to the wrapped tokenizer (which tailors the fold for it).
    ///
    /// An unknown language is not a language, so it is read as the wrapped tokenizer's name:
    /// FTS5 then fails with "error in tokenizer constructor" (FTS5 takes no message from a
    /// tokenizer). ``FTSIndex`` and `foldcheck` check the language first and name the valid ones.
    public static func registerSnowball(on connection: OpaquePointer) throws(FoldSQLiteError) {
        guard let api = cfoldsqlite_fts5_api(connection) else {
            throw FoldSQLiteError(code: SQLITE_ERROR, message: "this SQLite has no FTS5: \(String(cString: sqlite3_errmsg(connection)))")
        }
        try registerSnowball(fts5API: UnsafeMutableRawPointer(api))
    }

    /// Registers the `snowball` tokenizer with an `fts5_api *` (see ``registerSnowball(on:)``).
    ///
    /// ```swift
    /// try SQLiteRegistration.registerSnowball(fts5API: apiPointer)
    /// ```
    public static func registerSnowball(fts5API: UnsafeMutableRawPointer) throws(FoldSQLiteError) {
        FTSStemming.register(snowballTokenizerName) { FTSStemming.snowball(recorded: $0, profile: $1) }
        try createTokenizer(named: snowballTokenizerName, fts5API: fts5API, userData: fts5API,
                            v1: fts5_tokenizer(xCreate: snowballCreate, xDelete: snowballDelete, xTokenize: snowballTokenizeV1),
                            v2: cfold_fts5_tokenizer_v2(iVersion: 2, xCreate: snowballCreate, xDelete: snowballDelete, xTokenize: snowballTokenizeV2))
    }
}

/// The parsed arguments of a `snowball` tokenizer: its languages, whether it drops stop words,
/// and the wrapped tokenizer with its arguments.
struct SnowballArguments: Equatable {
    var languages: [SnowballLanguage]
    var stopWords: Bool
    var wrapped: String
    var wrappedArguments: [String]

    /// Languages and `stopwords` first, then the wrapped tokenizer (`fold` when none; `english`
    /// when no language is named, as fts5-snowball does). Nil for `stopwords` with a language
    /// that has no list, with the message.
    static func parse(_ arguments: [String]) -> Result<SnowballArguments, FoldSQLiteError> {
        var languages: [SnowballLanguage] = []
        var stopWords = false
        var rest = arguments[...]
        while let first = rest.first {
            if first.lowercased() == SQLiteRegistration.stopWordsArgument {
                stopWords = true
            } else if let language = SnowballLanguage(first), !first.contains(where: { "_-.@".contains($0) }) {
                if !languages.contains(language) { languages.append(language) }
            } else {
                break
            }
            rest = rest.dropFirst()
        }
        if languages.isEmpty { languages = [SnowballLanguage("english")!] }
        if stopWords, let without = languages.first(where: { !$0.hasStopWords }) {
            return .failure(FoldSQLiteError(code: SQLITE_ERROR, message: StemmerError.noStopWords(without).description))
        }
        return .success(SnowballArguments(languages: languages, stopWords: stopWords,
                                          wrapped: rest.first ?? SQLiteRegistration.tokenizerName, wrappedArguments: Array(rest.dropFirst())))
    }
}

/// One `snowball` tokenizer instance (one per FTS table and connection): the wrapped tokenizer's
/// instance, the stemmers of the table's languages and of each locale met so far, the stop words
/// folded by the wrapped tokenizer.
final class SnowballInstance {
    /// What stems for one choice of languages: a Snowball state each, and their stop words.
    final class Stemmers {
        let states: [SnowballState]
        let stopWords: Set<[UInt8]>
        init(states: [SnowballState], stopWords: Set<[UInt8]>) {
            self.states = states
            self.stopWords = stopWords
        }
    }

    let arguments: SnowballArguments
    /// The wrapped tokenizer: its v2 callbacks (FTS5 API 3: every tokenizer is reachable as v2)
    /// or its v1 callbacks, and its instance.
    let wrappedV2: UnsafeMutablePointer<cfold_fts5_tokenizer_v2>?
    let wrappedV1: fts5_tokenizer?
    let wrapped: OpaquePointer
    /// The stemmers of the table's languages (set once by `init`, after the wrapped tokenizer
    /// exists, which folds the stop words).
    private(set) var baseStemmers = Stemmers(states: [], stopWords: [])
    /// Held while tokenizing (a Snowball state is not for two threads at once).
    let lock = Lock()
    private var byLocale: [String: Stemmers] = [:]

    init?(arguments: SnowballArguments, api: UnsafeMutableRawPointer) {
        self.arguments = arguments
        let fts5 = api.assumingMemoryBound(to: fts5_api.self)
        var userData: UnsafeMutableRawPointer?
        var instance: OpaquePointer?
        let cArguments = arguments.wrappedArguments.map { strdup($0) }
        defer { cArguments.forEach { free($0) } }
        var pointers = cArguments.map { UnsafePointer($0) }
        if fts5.pointee.iVersion >= 3 {
            let v3 = api.assumingMemoryBound(to: cfold_fts5_api_v3.self)
            var found: UnsafeMutablePointer<cfold_fts5_tokenizer_v2>?
            guard let find = v3.pointee.xFindTokenizer_v2,
                  find(fts5, arguments.wrapped, &userData, &found) == SQLITE_OK, let found,
                  let create = found.pointee.xCreate,
                  create(userData, &pointers, Int32(pointers.count), &instance) == SQLITE_OK, let instance else { return nil }
            wrappedV2 = found
            wrappedV1 = nil
            wrapped = instance
        } else {
            var found = fts5_tokenizer()
            guard let find = fts5.pointee.xFindTokenizer,
                  find(fts5, arguments.wrapped, &userData, &found) == SQLITE_OK,
                  let create = found.xCreate,
                  create(userData, &pointers, Int32(pointers.count), &instance) == SQLITE_OK, let instance else { return nil }
            wrappedV2 = nil
            wrappedV1 = found
            wrapped = instance
        }
        // (A failure from here on runs deinit, which deletes the wrapped instance.)
        guard let made = makeStemmers(arguments.languages, locale: nil) else { return nil }
        baseStemmers = made
    }

    deinit { deleteWrapped() }

    private func deleteWrapped() {
        if let wrappedV2 { wrappedV2.pointee.xDelete?(wrapped) } else { wrappedV1?.xDelete?(wrapped) }
    }

    /// The stemmers for a locale (`de`, `pt_BR`, `sv-SE`): its language's when Snowball has it,
    /// else the table's; with the stop words tokenized under that locale, so they are folded as
    /// the wrapped tokenizer folds the locale's text (its tailoring: `på` is `pa` in Swedish).
    /// The table's own for no locale, or one that names neither a Snowball language nor a
    /// language the wrapped fold may tailor for. Made once per language code. Call with `lock`
    /// held.
    func stemmers(locale: UnsafeBufferPointer<UInt8>?) -> Stemmers {
        guard let locale, !locale.isEmpty, locale.count <= 32 else { return baseStemmers }
        let code = String(decoding: locale.prefix { $0 != UInt8(ascii: "_") && $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "@") },
                          as: UTF8.self).lowercased()
        guard !code.isEmpty, code.count <= 8 else { return baseStemmers }
        if let known = byLocale[code] { return known }
        let snowball = SnowballLanguage(code)
        guard snowball != nil || FoldLanguage(code: code) != nil else { return baseStemmers }
        // A language without a stop list keeps its words.
        let made = makeStemmers(snowball.map { [$0] } ?? arguments.languages, locale: locale) ?? baseStemmers
        byLocale[code] = made
        return made
    }

    /// Snowball states for `languages`, and their stop words tokenized by the wrapped tokenizer
    /// (with `locale`, so a tailored fold folds them as it folds the text). Nil when Snowball
    /// cannot make a state.
    private func makeStemmers(_ languages: [SnowballLanguage], locale: UnsafeBufferPointer<UInt8>?) -> Stemmers? {
        var states: [SnowballState] = []
        for language in languages {
            guard let state = SnowballState(language) else { return nil }
            states.append(state)
        }
        var stopWords: Set<[UInt8]> = []
        if arguments.stopWords {
            for language in languages where language.hasStopWords {
                let list = Array(Stemmer.stopWordList(of: language).utf8)
                _ = list.withUnsafeBufferPointer { text in
                    withUnsafeMutablePointer(to: &stopWords) { set in
                        tokenizeWrapped(flags: 0x0004, text: text, locale: locale, context: UnsafeMutableRawPointer(set)) { context, _, token, length, _, _ in
                            guard let context, let token, length > 0 else { return SQLITE_OK }
                            let set = context.assumingMemoryBound(to: Set<[UInt8]>.self)
                            set.pointee.insert(Array(UnsafeRawBufferPointer(start: token, count: Int(length))))
                            return SQLITE_OK
                        }
                    }
                }
            }
        }
        return Stemmers(states: states, stopWords: stopWords)
    }

    /// Runs the wrapped tokenizer over `text`, tokens to `callback` with `context`.
    func tokenizeWrapped(flags: Int32, text: UnsafeBufferPointer<UInt8>, locale: UnsafeBufferPointer<UInt8>?,
                         context: UnsafeMutableRawPointer?, _ callback: SnowballTokenCallback) -> Int32 {
        guard let base = text.baseAddress, !text.isEmpty else { return SQLITE_OK }
        let pointer = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
        if let wrappedV2, let tokenize = wrappedV2.pointee.xTokenize {
            let localePointer = locale.flatMap { $0.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) } }
            return tokenize(wrapped, context, flags, pointer, Int32(text.count), localePointer, Int32(locale?.count ?? 0), callback)
        }
        guard let tokenize = wrappedV1?.xTokenize else { return SQLITE_ERROR }
        return tokenize(wrapped, context, flags, pointer, Int32(text.count), callback)
    }
}

typealias SnowballTokenCallback = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32) -> Int32

/// FTS5's flags (fts5.h).
private let tokenizeQuery: Int32 = 0x0001, tokenizePrefix: Int32 = 0x0002, tokenizeDocument: Int32 = 0x0004
private let tokenColocated: Int32 = 0x0001

/// What one text's callbacks share: the caller's callback and context, the stemmers, the flags,
/// and in a prefix query the token held back until the next one shows it was not the last.
private struct Pass {
    var callback: SnowballTokenCallback
    var context: UnsafeMutableRawPointer?
    var stemmers: SnowballInstance.Stemmers
    var flags: Int32
    var held: [UInt8] = []
    var heldFlags: Int32 = 0, heldStart: Int32 = 0, heldEnd: Int32 = 0
    var holding = false
}

private let snowballCreate: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = { api, args, count, out in
    guard let api else { return SQLITE_MISUSE }
    var arguments: [String] = []
    for k in 0..<Int(max(0, count)) {
        if let a = args?[k] { arguments.append(String(cString: a)) }
    }
    guard case .success(let parsed) = SnowballArguments.parse(arguments),
          let instance = SnowballInstance(arguments: parsed, api: api) else { return SQLITE_ERROR }
    out?.pointee = OpaquePointer(Unmanaged.passRetained(instance).toOpaque())
    return SQLITE_OK
}

private let snowballDelete: @convention(c) (OpaquePointer?) -> Void = { instance in
    guard let instance else { return }
    Unmanaged<SnowballInstance>.fromOpaque(UnsafeRawPointer(instance)).release()
}

private let snowballTokenizeV1: @convention(c) (
    OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, SnowballTokenCallback?
) -> Int32 = { instance, context, flags, text, length, token in
    snowballTokenize(instance, context, flags, text, length, nil, 0, token)
}

private let snowballTokenizeV2: @convention(c) (
    OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, Int32, SnowballTokenCallback?
) -> Int32 = { instance, context, flags, text, length, locale, localeLength, token in
    snowballTokenize(instance, context, flags, text, length, locale, localeLength, token)
}

private func snowballTokenize(_ instance: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ flags: Int32,
                              _ text: UnsafePointer<CChar>?, _ length: Int32, _ locale: UnsafePointer<CChar>?, _ localeLength: Int32,
                              _ token: SnowballTokenCallback?) -> Int32 {
    guard let instance, let token else { return SQLITE_MISUSE }
    let snowball = Unmanaged<SnowballInstance>.fromOpaque(UnsafeRawPointer(instance)).takeUnretainedValue()
    guard let text, length > 0 else { return SQLITE_OK }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: Int(length))
    let localeBytes = locale.map { UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: Int(max(0, localeLength))) }
    return snowball.lock.withLock {
        var pass = Pass(callback: token, context: context, stemmers: snowball.stemmers(locale: localeBytes), flags: flags)
        return withUnsafeMutablePointer(to: &pass) { pass in
            let rc = snowball.tokenizeWrapped(flags: flags, text: bytes, locale: localeBytes, context: UnsafeMutableRawPointer(pass), stemToken)
            guard rc == SQLITE_OK, pass.pointee.holding else { return rc }
            // The last token of a prefix query: what it begins, unstemmed.
            return pass.pointee.held.withUnsafeBufferPointer { word in
                emit(pass.pointee, word, pass.pointee.heldFlags, pass.pointee.heldStart, pass.pointee.heldEnd, unstemmed: true)
            }
        }
    }
}

/// The wrapped tokenizer's callback. In a prefix query (`"lord of the ri"*`: FTS5 flags every
/// token of the phrase) each token is held until the next arrives, so that only the last is
/// passed unstemmed and the others are stemmed (or dropped) as in a document.
private let stemToken: SnowballTokenCallback = { context, tokenFlags, token, length, start, end in
    guard let context, let token, length > 0 else { return SQLITE_OK }
    let pass = context.assumingMemoryBound(to: Pass.self)
    let word = UnsafeBufferPointer(start: UnsafeRawPointer(token).assumingMemoryBound(to: UInt8.self), count: Int(length))
    guard pass.pointee.flags & tokenizePrefix != 0 else {
        return emit(pass.pointee, word, tokenFlags, start, end, unstemmed: false)
    }
    var rc = SQLITE_OK
    if pass.pointee.holding {
        rc = pass.pointee.held.withUnsafeBufferPointer { held in
            emit(pass.pointee, held, pass.pointee.heldFlags, pass.pointee.heldStart, pass.pointee.heldEnd, unstemmed: false)
        }
    }
    pass.pointee.held.removeAll(keepingCapacity: true)
    pass.pointee.held.append(contentsOf: word)
    pass.pointee.heldFlags = tokenFlags
    pass.pointee.heldStart = start
    pass.pointee.heldEnd = end
    pass.pointee.holding = true
    return rc
}

/// One token to FTS5: a stop word dropped; `unstemmed` (a prefix query's last word) as it is;
/// else the stem (the first language's that changes the word), with the unstemmed word
/// colocated in a document so that prefix queries find it.
private func emit(_ pass: Pass, _ word: UnsafeBufferPointer<UInt8>, _ tokenFlags: Int32, _ start: Int32, _ end: Int32, unstemmed: Bool) -> Int32 {
    guard let base = word.baseAddress, !word.isEmpty else { return SQLITE_OK }
    let token = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), length = Int32(word.count)
    if unstemmed { return pass.callback(pass.context, tokenFlags, token, length, start, end) }
    if !pass.stemmers.stopWords.isEmpty && pass.stemmers.stopWords.contains(Array(word)) { return SQLITE_OK }
    for state in pass.stemmers.states {
        let code: Int32? = state.withStem(of: word) { stem in
            guard !stem.elementsEqual(word), let stemBase = stem.baseAddress, !stem.isEmpty else { return nil }
            let first = pass.callback(pass.context, tokenFlags, UnsafeRawPointer(stemBase).assumingMemoryBound(to: CChar.self), Int32(stem.count), start, end)
            guard first == SQLITE_OK, pass.flags & tokenizeQuery == 0 else { return first }
            return pass.callback(pass.context, tokenColocated, token, length, start, end)
        }
        if let code { return code }
    }
    return pass.callback(pass.context, tokenFlags, token, length, start, end)
}

/// The extension's registration (`CFoldSQLiteExtension`): a code, and on failure a message
/// allocated with SQLite's allocator.
@_cdecl("foldsqlite_register_snowball")
func foldsqliteRegisterSnowball(_ api: UnsafeMutableRawPointer?, _ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                _ allocate: (@convention(c) (Int32) -> UnsafeMutableRawPointer?)?) -> Int32 {
    guard let api else { return SQLITE_ERROR }
    do {
        try SQLiteRegistration.registerSnowball(fts5API: api)
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
