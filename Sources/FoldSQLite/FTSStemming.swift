import Fold

/// A stemmer that an ``FTSIndex`` puts after its fold: the tokenizer that wraps `fold` (its words
/// before `fold` in the `tokenize` option), what the index's fingerprint adds for it, and the stem
/// of a folded word, with which the index marks what a stemmed query matched.
///
/// FoldSQLite has no stemmer of its own (so it needs no stemming library); FoldSQLiteSnowball
/// makes them:
///
/// ```swift
/// import FoldSQLiteSnowball
/// try SQLiteRegistration.registerSnowball(on: db)
/// let stemming = try FTSStemming.snowball("german", droppingStopWords: true)
/// let index = try FTSIndex(connection: db, table: "docs_fts", columns: ["body"], stemming: stemming)
/// stemming.tokenizerArguments   // ["snowball", "german", "stopwords"]
/// stemming.fingerprint          // "snowball2.2.0-german-96304c1d-stopwords"
/// ```
public struct FTSStemming: Sendable, Hashable, CustomStringConvertible {
    /// The words of the `tokenize` option before `fold` (the wrapper's name and arguments).
    public let tokenizerArguments: [String]
    /// What the index's recorded fingerprint adds after the fold's (`FOLD+STEMMING`): a changed
    /// stemmer rebuilds the index as a changed fold does.
    public let fingerprint: String
    /// The stem of a folded word (UTF-8), or nil for a stop word the tokenizer drops.
    let stem: @Sendable (UnsafeBufferPointer<UInt8>) -> [UInt8]?

    /// A stemming: the wrapper tokenizer's arguments, its fingerprint, and the stem the wrapper
    /// gives a folded word (nil when it drops the word). FoldSQLiteSnowball makes Snowball's; the
    /// wrapper must index the unstemmed word beside each stem and leave a prefix query's word
    /// unstemmed, which ``FTSQuery`` and the highlighting count on.
    package init(tokenizerArguments: [String], fingerprint: String, stem: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> [UInt8]?) {
        self.tokenizerArguments = tokenizerArguments
        self.fingerprint = fingerprint
        self.stem = stem
    }

    /// Equal when the arguments and the fingerprint are.
    public static func == (a: FTSStemming, b: FTSStemming) -> Bool {
        a.tokenizerArguments == b.tokenizerArguments && a.fingerprint == b.fingerprint
    }

    /// Hashes the arguments and the fingerprint.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(tokenizerArguments)
        hasher.combine(fingerprint)
    }

    /// The arguments, then the fingerprint in parentheses.
    public var description: String { "\(tokenizerArguments.joined(separator: " ")) (\(fingerprint))" }

    /// The stemmings that ``FTSIndex/existing(connection:table:columns:content:progress:)`` can
    /// reopen, by the wrapper's name: each makes the stemming for a recorded index's wrapper
    /// arguments and profile (nil when it cannot). FoldSQLiteSnowball registers `snowball` when its tokenizer is
    /// registered.
    package static func register(_ name: String, _ make: @escaping @Sendable ([String], FoldProfile) -> FTSStemming?) {
        registryLock.withLock { registry[name] = make }
    }

    /// The stemming for recorded wrapper arguments, nil when no one registered its name (or its
    /// maker refused the arguments).
    static func recorded(_ arguments: [String], profile: FoldProfile) -> FTSStemming? {
        guard let name = arguments.first, let make = registryLock.withLock({ registry[name] }) else { return nil }
        return make(arguments, profile)
    }
}

private let registryLock = Lock()
nonisolated(unsafe) private var registry: [String: @Sendable ([String], FoldProfile) -> FTSStemming?] = [:]
