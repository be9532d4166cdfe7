/// What a ``LiveSearch`` searches: a ``SearchIndex`` through ``SearchIndexSource``, or any
/// other index (an SQLite FTS table) that answers a query with its first matches.
///
/// A source is called off the caller's actor, once per query that survives the quiet period;
/// it must check `Task.isCancelled` (or call `Task.checkCancellation()`) often, so a search
/// that a newer keystroke made stale stops within one block of work.
///
/// ```swift
/// struct Titles: LiveSearchSource {
///     func search(_ query: String, limit: Int) async throws -> LiveSearchResults<Int> { ... }
/// }
/// ```
public protocol LiveSearchSource: Sendable {
    /// The type of the identifiers a match carries (a `SearchIndex`'s IDs, an SQLite rowid).
    associatedtype ID: Sendable
    /// The first `limit` matches of `query` in order, with the ranges to highlight, and the
    /// count of all matches.
    func search(_ query: String, limit: Int) async throws -> LiveSearchResults<ID>
}

/// The answer to one query: its first matches, with what to highlight, and how many there are.
///
/// ```swift
/// for match in results.matches { print(match.text, match.ranges.map { match.text[$0] }) }
/// print("\(results.matches.count) of \(results.totalCount)")
/// ```
public struct LiveSearchResults<ID: Sendable>: Sendable {
    /// One materialized match.
    public struct Match: Sendable {
        /// The caller's identifier of the text.
        public var id: ID
        /// The text as stored.
        public var text: String
        /// The ranges of `text` to highlight, left to right.
        public var ranges: [Range<String.Index>]

        /// A match of `text`.
        ///
        /// ```swift
        /// LiveSearchResults<Int>.Match(id: 1, text: "Łódź", ranges: [])
        /// ```
        public init(id: ID, text: String, ranges: [Range<String.Index>]) {
            self.id = id
            self.text = text
            self.ranges = ranges
        }
    }

    /// The query these results answer.
    public var query: String
    /// The first matches, in the source's order.
    public var matches: [Match]
    /// How many texts match in all (at least `matches.count`).
    public var totalCount: Int

    /// Results for `query`.
    ///
    /// ```swift
    /// LiveSearchResults<Int>(query: "", matches: [], totalCount: 0)
    /// ```
    public init(query: String, matches: [Match], totalCount: Int) {
        self.query = query
        self.matches = matches
        self.totalCount = totalCount
    }

    /// The ids of the materialized matches, in order.
    public var ids: [ID] { matches.map(\.id) }
}

/// A ``SearchIndex`` as a ``LiveSearchSource``: each query folded once by the index's folder
/// and matched in the given mode, the index scanned in parallel shards (one per core) merged in
/// order, the first `limit` matches mapped back to their originals to highlight.
///
/// ```swift
/// let source = SearchIndexSource(index, mode: .wordPrefixes(.inOrder))
/// let live = LiveSearch(source)
/// ```
public struct SearchIndexSource<ID: Sendable>: LiveSearchSource {
    /// The index searched.
    public let index: SearchIndex<ID>
    /// How the query matches: a substring, or word prefixes.
    public let mode: Matcher.Mode
    /// What the user typed to respect: diacritics, case.
    public let options: Matcher.Options
    /// How many shards a search splits the index into (default: the active cores).
    public let shards: Int

    /// A source over `index`.
    ///
    /// ```swift
    /// SearchIndexSource(index, mode: .substring, options: [.respectsTypedDiacritics])
    /// ```
    public init(_ index: SearchIndex<ID>, mode: Matcher.Mode = .substring, options: Matcher.Options = [], shards: Int? = nil) {
        self.index = index
        self.mode = mode
        self.options = options
        self.shards = max(1, shards ?? Self.activeCores)
    }

    static var activeCores: Int { ActiveCores.count }

    /// The first `limit` matches of `query` in index order, with the ranges to highlight, and
    /// the count of all matches. Throws `CancellationError` within one block of 4,096 keys once
    /// the task is cancelled.
    ///
    /// ```swift
    /// let results = try await SearchIndexSource(index).search("lodz", limit: 10)
    /// ```
    public func search(_ query: String, limit: Int) async throws -> LiveSearchResults<ID> {
        let matcher = Matcher(query, folder: index.folder, mode: mode, options: options)
        let (keys, count) = try await matchingKeys(matcher, first: max(0, limit))
        try Task.checkCancellation()
        var matches: [LiveSearchResults<ID>.Match] = []
        for k in keys {
            let text = index.originals[k]
            matches.append(.init(id: index.ids[k], text: text, ranges: matcher.matches(in: text)))
        }
        return LiveSearchResults(query: query, matches: matches, totalCount: count)
    }

    /// The first `first` matching keys in order and the count of all: shards of the index
    /// scanned at once (each keeps its own first keys and counts the rest), merged in order.
    func matchingKeys(_ matcher: Matcher, first: Int) async throws -> (keys: [Int], count: Int) {
        let count = index.count
        let shardCount = count < 8 * Matcher.indexBlock ? 1 : min(shards, count / Matcher.indexBlock)
        let index = self.index
        @Sendable func scan(_ range: Range<Int>) throws -> (keys: [Int], count: Int) {
            var keys: [Int] = []
            let n = try matcher.matchingKeys(in: index, range, first: first) { keys.append($0) }
            return (keys, n)
        }
        if shardCount <= 1 { return try scan(0..<count) }
        return try await withThrowingTaskGroup(of: (Int, [Int], Int).self) { group in
            for s in 0..<shardCount {
                let range = (count * s / shardCount)..<(count * (s + 1) / shardCount)
                group.addTask {
                    let (keys, n) = try scan(range)
                    return (s, keys, n)
                }
            }
            var parts = [[Int]](repeating: [], count: shardCount)
            var total = 0
            for try await (s, keys, n) in group {
                parts[s] = keys
                total += n
            }
            return (Array(parts.joined().prefix(first)), total)
        }
    }
}
