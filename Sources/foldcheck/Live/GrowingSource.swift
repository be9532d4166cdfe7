import Fold
import FoldSQLite

/// What the screen searches: a `SearchIndexSource` over the lines loaded so far (the reader
/// publishes a new index value after each block, and each search takes the newest), or, with
/// `--db`, the FTS5 index of a database.
final class GrowingSource: LiveSearchSource, @unchecked Sendable {
    typealias ID = Int

    private enum Backing {
        /// The lines loaded so far.
        case lines(SearchIndexSource<Int>)
        /// `--db`: the index, its row count and its first lines (shown before a query is typed).
        case database(FTSIndexSource, total: Int, first: [String])
    }

    private let mutex = Lock()
    private var backing: Backing

    init(_ index: SearchIndex<Int>, mode: Matcher.Mode) {
        backing = .lines(SearchIndexSource(index, mode: mode))
    }

    init(database source: FTSIndexSource, total: Int, first: [String]) {
        backing = .database(source, total: total, first: first)
    }

    /// How many lines there are (loaded so far).
    var total: Int {
        switch mutex.withLock({ backing }) {
        case .lines(let source): source.index.count
        case .database(_, let total, _): total
        }
    }

    /// Line `i`, among the first ones, for the screen before a query is typed.
    func line(_ i: Int) -> String? {
        switch mutex.withLock({ backing }) {
        case .lines(let source): i < source.index.count ? source.index.originals[i] : nil
        case .database(_, _, let first): first.indices.contains(i) ? first[i] : nil
        }
    }

    /// The lines loaded so far are `index` (a source over a database has nothing to load).
    func publish(_ index: SearchIndex<Int>) {
        mutex.withLock {
            guard case .lines(let source) = backing else { return }
            backing = .lines(SearchIndexSource(index, mode: source.mode))
        }
    }

    func search(_ query: String, limit: Int) async throws -> LiveSearchResults<Int> {
        switch mutex.withLock({ backing }) {
        case .lines(let source):
            return try await source.search(query, limit: limit)
        case .database(let source, _, _):
            let r = try await source.search(query, limit: limit)
            return LiveSearchResults(query: r.query, matches: r.matches.map { .init(id: Int($0.id), text: $0.text, ranges: $0.ranges) },
                                     totalCount: r.totalCount)
        }
    }
}
