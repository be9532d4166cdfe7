import Fold

/// Many texts searched by stem after the fold, with search-as-you-type prefixes kept: Fold's
/// ``SearchIndex`` of the folded texts, and beside it each stem's texts.
///
/// A query's words match a text's words by stem (`runs` finds "Running", `hauser` finds "Haus"),
/// except the last word while it is being typed (the query does not end with a space), which
/// matches a word it begins, unstemmed (`runni` finds "Running" although its stem is `run`), or
/// a word with its stem. The stemmer's stop words are left out of the query, as they are out of
/// the stems. Every word must match; the order does not matter.
///
/// ```swift
/// let stemmer = try Stemmer(language: "english")
/// let index = StemmedSearchIndex([(id: 1, text: "Running shoes"), (id: 2, text: "Run Shoe")], stemmer: stemmer)
/// try await index.search("shoes run")   // [1, 2]
/// try await index.search("runni")       // [1]
/// index.matches(of: "runs", in: "Running shoes").map { "Running shoes"[$0] }   // ["Running"]
/// ```
///
/// The search runs off the caller's actor and checks for cancellation between its steps and
/// every few thousand texts, so a superseded search stops at once.
public struct StemmedSearchIndex<ID: Sendable>: Sendable {
    /// The stemmer (and through it the folder) the texts and the queries go through.
    public let stemmer: Stemmer
    /// The callers' identifiers, in order.
    public private(set) var ids: [ID] = []
    /// The folded texts, keyed by position: what a prefix searches.
    public private(set) var words: SearchIndex<Int>
    /// For each stem, the positions of the texts that have it, ascending.
    private var postings: [[UInt8]: [Int32]] = [:]

    /// An index of `items`, their words folded and stemmed here.
    ///
    /// ```swift
    /// let index = StemmedSearchIndex([(id: "a", text: "Die Häuser")], stemmer: try Stemmer(language: "german"))
    /// ```
    public init(_ items: [(id: ID, text: String)] = [], stemmer: Stemmer) {
        self.stemmer = stemmer
        words = SearchIndex(folder: stemmer.folder)
        if !items.isEmpty { append(contentsOf: items) }
    }

    /// Adds texts after the ones the index has.
    ///
    /// ```swift
    /// index.append(contentsOf: [(id: 3, text: "Runners")])
    /// ```
    public mutating func append(contentsOf items: some Sequence<(id: ID, text: String)>) {
        let items = Array(items)
        let first = ids.count
        words.append(contentsOf: items.enumerated().map { (id: first + $0.offset, text: $0.element.text) })
        for (k, item) in items.enumerated() {
            let position = Int32(first + k)
            ids.append(item.id)
            for word in stemmer.tokens(in: item.text) {
                let stem = Array(word.stem.utf8)
                if postings[stem]?.last != position { postings[stem, default: []].append(position) }
            }
        }
    }

    /// How many texts the index holds.
    ///
    /// ```swift
    /// StemmedSearchIndex<Int>(stemmer: try Stemmer(language: "english")).count   // 0
    /// ```
    public var count: Int { ids.count }

    /// How many distinct stems the index holds, and how many (stem, text) entries: what stemming
    /// adds to the folded texts' ``SearchIndex``.
    ///
    /// ```swift
    /// index.stemCounts   // (stems: 2, entries: 4)
    /// ```
    public var stemCounts: (stems: Int, entries: Int) { (postings.count, postings.values.reduce(0) { $0 + $1.count }) }

    /// The ids of the texts that match `query`, in the index's order (empty for a query with no
    /// word). Throws `CancellationError` when its task is cancelled.
    ///
    /// ```swift
    /// let ids = try await index.search("lovers crem")
    /// ```
    public func search(_ query: String) async throws -> [ID] {
        let (whole, typing) = queryWords(query)
        guard !whole.isEmpty || typing != nil else { return [] }
        var result: [Int32]?
        for stem in whole {
            try Task.checkCancellation()
            let found = postings[stem] ?? []
            result = result.map { intersect($0, found) } ?? found
            if result?.isEmpty == true { return [] }
        }
        if let typing {
            // What the last word begins, unstemmed, or its stem.
            let prefixed = try await Matcher(typing.folded, folder: stemmer.folder, mode: .wordPrefixes(.anyOrder)).filter(words).map { Int32($0) }
            let either = union(prefixed, postings[typing.stem] ?? [])
            result = result.map { intersect($0, either) } ?? either
        }
        try Task.checkCancellation()
        return (result ?? []).map { ids[Int($0)] }
    }

    /// Where `query` matched in `text` (one of the index's texts, or any): the words whose stem
    /// is a query word's, and those the last word begins while it is typed, as ranges of `text`,
    /// left to right.
    ///
    /// ```swift
    /// index.matches(of: "shoe", in: "Running shoes")   // the range of "shoes"
    /// ```
    public func matches(of query: String, in text: String) -> [Range<String.Index>] {
        let (whole, typing) = queryWords(query)
        let stems = Set(whole + (typing.map { [$0.stem] } ?? []))
        var ranges: [Range<String.Index>] = []
        for token in stemmer.folder.tokens(in: text) {
            let folded = token.foldedUTF8
            let stem = token.withFoldedUTF8 { stemmer.withStem(of: $0) { Array($0) } }
            if stems.contains(stem) || typing.map({ folded.starts(with: $0.foldedUTF8) }) == true {
                ranges.append(token.originalRange(in: text))
            }
        }
        return ranges
    }

    /// The query's stems of whole words (stop words left out), and the word being typed (folded
    /// and stemmed) when the query does not end with a space.
    private func queryWords(_ query: String) -> (whole: [[UInt8]], typing: (folded: String, foldedUTF8: [UInt8], stem: [UInt8])?) {
        var tokens = Array(stemmer.folder.tokens(in: query))
        var typing: (folded: String, foldedUTF8: [UInt8], stem: [UInt8])?
        if let last = tokens.last, last.originalUTF8Range.upperBound == query.utf8.count {
            tokens.removeLast()
            let stem = last.withFoldedUTF8 { stemmer.withStem(of: $0) { Array($0) } }
            typing = (last.folded, last.foldedUTF8, stem)
        }
        let whole = tokens.compactMap { token -> [UInt8]? in
            token.withFoldedUTF8 { folded in
                if stemmer.dropsStopWords && stemmer.isStopWord(String(decoding: folded, as: UTF8.self)) { return nil }
                return stemmer.withStem(of: folded) { Array($0) }
            }
        }
        return (whole, typing)
    }
}

/// The positions in both ascending lists.
private func intersect(_ a: [Int32], _ b: [Int32]) -> [Int32] {
    var out: [Int32] = []
    var i = 0, j = 0
    while i < a.count && j < b.count {
        if a[i] == b[j] { out.append(a[i]); i += 1; j += 1 } else if a[i] < b[j] { i += 1 } else { j += 1 }
    }
    return out
}

/// The positions in either ascending list, ascending, once each.
private func union(_ a: [Int32], _ b: [Int32]) -> [Int32] {
    var out: [Int32] = []
    out.reserveCapacity(a.count + b.count)
    var i = 0, j = 0
    while i < a.count || j < b.count {
        if j == b.count || (i < a.count && a[i] < b[j]) { out.append(a[i]); i += 1 } else if i == a.count || b[j] < a[i] { out.append(b[j]); j += 1 } else { out.append(a[i]); i += 1; j += 1 }
    }
    return out
}
