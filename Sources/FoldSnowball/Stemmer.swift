internal import CSnowball
import Fold

/// Snowball stemming after Fold's fold: a language's stemmer for the words a ``Folder`` makes,
/// and its stop words folded with the same profile.
///
/// The stemmer reads folded words, so the fold happens first and the stem is of what every
/// spelling of a word folds to: `Häuser`, `HAUSER` and `Hauser` all stem to `haus`. The stop
/// words are folded with the folder's profile when the stemmer is made, so a stop word typed
/// with or without its accents is dropped the same way (`für` and `fur` in German, `où` and `ou`
/// in French).
///
/// ```swift
/// let stemmer = try Stemmer(language: "german", droppingStopWords: true)
/// stemmer.tokens(in: "Die Häuser für ALLE").map(\.stem)   // ["haus", "all"]
/// stemmer.stem("hauser")                                    // "haus"
/// ```
///
/// A stemmer is `Sendable`: calls from several threads take turns on one Snowball state (a few
/// tens of nanoseconds a word); give each thread its own stemmer when that matters.
public final class Stemmer: Sendable {
    /// The language's Snowball algorithm.
    public let language: SnowballLanguage
    /// The folder whose words this stemmer stems, and whose profile folded the stop words.
    public let folder: Folder
    /// Whether ``tokens(in:)`` leaves out the language's stop words.
    public let dropsStopWords: Bool
    /// The stop words, folded with ``folder``'s profile (empty when not dropping them, or when
    /// Snowball has no list for the language).
    let stopWords: Set<[UInt8]>
    let state: SnowballState
    let lock = Lock()

    /// A stemmer for a Snowball language name or ISO code (`german`, `de`, `de_AT`), after
    /// `folder`'s fold. With `droppingStopWords`, ``tokens(in:)`` leaves out the language's
    /// Snowball stop words; a language without a list (``SnowballLanguage/hasStopWords``) then
    /// throws, rather than quietly keeping them.
    ///
    /// ```swift
    /// let french = try Stemmer(language: "fr", folder: Folder(.search), droppingStopWords: true)
    /// ```
    public init(language: String, folder: Folder = Folder(), droppingStopWords: Bool = false) throws(StemmerError) {
        guard let known = SnowballLanguage(language) else { throw .unknownLanguage(language) }
        guard !droppingStopWords || known.hasStopWords else { throw .noStopWords(known) }
        guard let state = SnowballState(known) else { throw .unknownLanguage(language) }
        self.language = known
        self.folder = folder
        self.dropsStopWords = droppingStopWords
        self.state = state
        stopWords = droppingStopWords ? Self.foldedStopWords(of: known, folder: folder) : []
    }

    private init(_ other: Stemmer, state: SnowballState) {
        language = other.language
        folder = other.folder
        dropsStopWords = other.dropsStopWords
        stopWords = other.stopWords
        self.state = state
    }

    /// The same stemmer with a Snowball state of its own, for another thread (this one when
    /// Snowball cannot make another state).
    package func forAnotherThread() -> Stemmer {
        guard let state = SnowballState(language) else { return self }
        return Stemmer(self, state: state)
    }

    /// The stem of a folded word (one token's ``Token/folded``). A word Snowball leaves alone
    /// comes back as it is.
    ///
    /// ```swift
    /// try Stemmer(language: "english").stem("running")   // "run"
    /// ```
    public func stem(_ foldedWord: some StringProtocol) -> String {
        var word = String(foldedWord)
        return word.withUTF8 { bytes in withStem(of: bytes) { String(decoding: $0, as: UTF8.self) } }
    }

    /// Calls `body` with the stem of a folded word's UTF-8 bytes (valid only inside `body`),
    /// without copying them; what `body` returns is returned. `body` runs while the stemmer is
    /// held: it must not call this stemmer.
    ///
    /// ```swift
    /// let length = token.withFoldedUTF8 { folded in stemmer.withStem(of: folded) { $0.count } }
    /// ```
    public func withStem<R>(of foldedUTF8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try lock.withLock { try state.withStem(of: foldedUTF8, body) }
    }

    /// Whether a folded word is one of the stop words this stemmer drops (always false when it
    /// drops none).
    ///
    /// ```swift
    /// try Stemmer(language: "german", droppingStopWords: true).isStopWord("fur")   // true ("für")
    /// ```
    public func isStopWord(_ foldedWord: some StringProtocol) -> Bool {
        !stopWords.isEmpty && stopWords.contains(Array(foldedWord.utf8))
    }

    /// The words of `text`, folded, then stemmed, without the stop words when the stemmer drops
    /// them; each keeps its token, so the original's range still marks the word as it was typed
    /// (`Running`, not `run`).
    ///
    /// ```swift
    /// let text = "Running shoes"
    /// for word in try Stemmer(language: "english").tokens(in: text) {
    ///     print(word.stem, text[word.token.originalRange(in: text)])   // run Running, shoe shoes
    /// }
    /// ```
    public func tokens(in text: some StringProtocol) -> [StemmedToken] {
        var result: [StemmedToken] = []
        for token in folder.tokens(in: text) {
            token.withFoldedUTF8 { folded in
                if !stopWords.isEmpty && stopWords.contains(Array(folded)) { return }
                result.append(StemmedToken(token: token, stem: withStem(of: folded) { String(decoding: $0, as: UTF8.self) }))
            }
        }
        return result
    }

    /// The language's Snowball stop words as published, one a line ("" when it has none).
    package static func stopWordList(of language: SnowballLanguage) -> String { stopWordLists[language.name] ?? "" }

    /// The language's stop words, each folded with the profile to the words it makes (a stop
    /// word the fold splits, which no list has, would give each of its words).
    static func foldedStopWords(of language: SnowballLanguage, folder: Folder) -> Set<[UInt8]> {
        guard let list = stopWordLists[language.name] else { return [] }
        var words: Set<[UInt8]> = []
        for line in list.split(separator: "\n") {
            for token in folder.tokens(in: line) { words.insert(token.foldedUTF8) }
        }
        return words
    }
}

/// A word after the fold and the stem: the stem, and the token it came from (its folded word and
/// the byte range of the original, for highlighting).
///
/// ```swift
/// let word = try Stemmer(language: "english").tokens(in: "Running")[0]
/// word.stem                     // "run"
/// word.token.folded             // "running"
/// word.token.originalUTF8Range  // 0..<7
/// ```
public struct StemmedToken: Sendable, Hashable, CustomStringConvertible {
    /// The token: the folded word and where it is in the original.
    public let token: Token
    /// The folded word's stem.
    public let stem: String

    /// "STEM@RANGE".
    public var description: String { "\(stem)@\(token.originalUTF8Range)" }
}

/// Why a stemmer cannot be made.
///
/// ```swift
/// do { _ = try Stemmer(language: "klingon") } catch { print(error) }
/// // no Snowball stemmer for 'klingon'; the languages are arabic, armenian, ...
/// ```
public enum StemmerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No Snowball stemmer has this name or code.
    case unknownLanguage(String)
    /// Stop words were asked for a language Snowball publishes no list for.
    case noStopWords(SnowballLanguage)

    /// The message, naming the valid choices.
    public var description: String {
        switch self {
        case .unknownLanguage(let name):
            return "no Snowball stemmer for '\(name)'; the languages are \(SnowballLanguage.all.map(\.name).joined(separator: ", ")) (or their ISO 639 codes: de, fr, ...)"
        case .noStopWords(let language):
            return "Snowball has no stop words for \(language.name); the languages with stop words are \(SnowballLanguage.all.filter(\.hasStopWords).map(\.name).joined(separator: ", "))"
        }
    }
}

/// One Snowball stemmer state (`struct sb_stemmer`), UTF-8. Not for two threads at once: its
/// owner serializes the calls (``Stemmer``'s lock, an FTS5 tokenizer's own lock).
package final class SnowballState: @unchecked Sendable {
    let stemmer: OpaquePointer

    package convenience init?(_ language: SnowballLanguage) { self.init(rawName: language.name) }

    /// A state for any name `sb_stemmer_new` takes (its own aliases included).
    package init?(rawName: String) {
        guard let made = sb_stemmer_new(rawName, "UTF_8") else { return nil }
        stemmer = made
    }

    deinit { sb_stemmer_delete(stemmer) }

    /// Calls `body` with the stem of `word`; `word` itself when Snowball fails (out of memory) or
    /// the word is longer than its `int` length takes.
    package func withStem<R>(of word: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard word.count > 0, word.count < Int(Int32.max),
              let stemmed = sb_stemmer_stem(stemmer, word.baseAddress, Int32(word.count)) else { return try body(word) }
        return try body(UnsafeBufferPointer(start: stemmed, count: Int(sb_stemmer_length(stemmer))))
    }
}
