import Fold
import FoldSQLite
import FoldSnowball

extension FTSStemming {
    /// Snowball stemming after the fold, for ``FTSIndex``: the `snowball` tokenizer wrapping
    /// `fold` (register it with ``SQLiteRegistration/registerSnowball(on:)``), its languages
    /// tried in order, with their stop words dropped when asked. `profile` is the index's: it
    /// folds the stop words as the index folds its text. An unknown language, or stop words for
    /// a language without a list, throws a ``StemmerError`` naming the valid ones.
    ///
    /// ```swift
    /// try SQLiteRegistration.registerSnowball(on: db)
    /// let index = try FTSIndex(connection: db, table: "docs_fts", columns: ["body"],
    ///                          stemming: try .snowball("english"))
    /// try index.search("runni").map(\.columns)   // [["[Running] shoes"]]
    /// ```
    public static func snowball(_ languages: String..., droppingStopWords: Bool = false, profile: FoldProfile = .search) throws(StemmerError) -> FTSStemming {
        var known: [SnowballLanguage] = []
        for name in languages {
            guard let language = SnowballLanguage(name) else { throw .unknownLanguage(name) }
            if !known.contains(language) { known.append(language) }
        }
        if known.isEmpty { known = [SnowballLanguage("english")!] }
        return try snowball(known, droppingStopWords: droppingStopWords, profile: profile)
    }

    static func snowball(_ languages: [SnowballLanguage], droppingStopWords: Bool, profile: FoldProfile) throws(StemmerError) -> FTSStemming {
        let folder = Folder(profile)
        var made: [Stemmer] = []
        for language in languages {
            made.append(try Stemmer(language: language.name, folder: folder, droppingStopWords: droppingStopWords))
        }
        let stemmers = made
        let arguments = [SQLiteRegistration.snowballTokenizerName] + languages.map(\.name) + (droppingStopWords ? [SQLiteRegistration.stopWordsArgument] : [])
        let fingerprint = languages.map(\.fingerprint).joined(separator: "+") + (droppingStopWords ? "-stopwords" : "")
        return FTSStemming(tokenizerArguments: arguments, fingerprint: fingerprint) { word in
            // As the tokenizer: a stop word of any language is dropped; the first stemmer that
            // changes the word gives the stem.
            if droppingStopWords {
                let text = String(decoding: word, as: UTF8.self)
                if stemmers.contains(where: { $0.isStopWord(text) }) { return nil }
            }
            // As the tokenizer: the first stemmer that changes the word (to a stem that is not
            // empty) gives the stem.
            for stemmer in stemmers {
                let stem = stemmer.withStem(of: word) { Array($0) }
                if !stem.isEmpty && !stem.elementsEqual(word) { return stem }
            }
            return Array(word)
        }
    }

    /// The stemming of recorded `snowball` arguments (for ``FTSIndex/existing(connection:table:columns:content:progress:)``).
    static func snowball(recorded arguments: [String], profile: FoldProfile) -> FTSStemming? {
        guard case .success(let parsed) = SnowballArguments.parse(Array(arguments.dropFirst())), parsed.wrapped == SQLiteRegistration.tokenizerName,
              parsed.wrappedArguments.isEmpty else { return nil }
        return try? snowball(parsed.languages, droppingStopWords: parsed.stopWords, profile: profile)
    }
}
