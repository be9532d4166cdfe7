internal import CSQLite
import Fold

/// An ``FTSIndex`` as a `LiveSearchSource`: a `LiveSearch` over an SQLite FTS5 index, the same
/// way as over a `SearchIndex` (`SearchIndexSource`), so an app can switch between the two.
/// This is the live-search source: `LiveSearch` calls its ``search(_:limit:)`` for the latest
/// query only; for one search run now, with the matches marked in the text, call
/// ``FTSIndex/search(_:limit:prefixLast:open:close:)``.
///
/// Each query becomes an FTS5 MATCH through ``FTSQuery`` (the last word a prefix); matches come
/// best first (bm25), the first `limit` with the ranges to highlight in the shown column (the
/// words the query's words are prefixes of, by the index's folder: the typed prefix, as a
/// `SearchIndexSource` marks it), and a count of all matches.
/// Searches run one at a time on the index's connection, off the caller's actor (`LiveSearch`
/// calls it from a task of its own); cancelling the task interrupts SQLite through its progress
/// handler, so a superseded search stops within a few thousand virtual-machine steps. Give the
/// source a connection of its own when the app writes through another.
///
/// ```swift
/// let index = try FTSIndex(connection: db, table: "titles_fts", columns: ["title"])
/// let live = LiveSearch(FTSIndexSource(index))
/// live.submit("creme bru")
/// ```
public final class FTSIndexSource: LiveSearchSource, @unchecked Sendable {
    /// A match's identifier: the row's rowid.
    public typealias ID = Int64

    /// The index searched (this source uses it under a lock of its own, one search at a time).
    public let index: FTSIndex
    /// The column whose text a match shows.
    public let column: Int
    private let lock = Lock()

    /// A source over `index` whose matches show column `column` (the first by default).
    ///
    /// ```swift
    /// let source = FTSIndexSource(index, column: 0)
    /// ```
    public init(_ index: FTSIndex, column: Int = 0) {
        self.index = index
        self.column = max(0, min(column, index.columns.count - 1))
    }

    /// The first `limit` matches of `query`, best first, and the count of all of them.
    ///
    /// ```swift
    /// let results = try await FTSIndexSource(index).search("lodz", limit: 10)
    /// results.matches.first?.text   // "Łódź"
    /// ```
    public func search(_ query: String, limit: Int) async throws -> LiveSearchResults<Int64> {
        try Task.checkCancellation()
        // The query's words, folded once for the MATCH and for where the search's words end.
        let words = FTSQuery.words(of: query, folder: index.folder, typedDiacritics: index.typedDiacritics)
        guard let match = FTSQuery.expression(words.searched, prefixLast: true, stemming: index.stemming) else {
            return LiveSearchResults(query: query, matches: [], totalCount: 0)
        }
        // The words the search used (its first FTSQuery.maximumWords), no more, marked from
        // the same fold.
        let highlighter = Matcher(foldedWords: words.plain.flatMap { $0 }, of: String(FTSQuery.usedText(of: query, end: words.usedEnd)),
                                  folder: index.folder, order: .anyOrder)
        // A stemmed index marks the words whose stems matched (`Running` for `runs`).
        let stemmed = index.stemming.map { Highlighter(phrases: words.plain, folder: index.folder, prefixLast: true, stem: $0.stem) }
        return try lock.withLock {
            try interruptible {
                let table = quoted(index.table), shown = quoted(index.columns[column])
                let rows = try index.connection.prepare("SELECT rowid, \(shown) FROM \(table) WHERE \(table) MATCH ?1 ORDER BY rank LIMIT ?2")
                rows.bind(1, match)
                rows.bind(2, Int64(max(0, limit)))
                var matches: [LiveSearchResults<Int64>.Match] = []
                while try rows.step() {
                    let text = rows.text(1) ?? ""
                    let ranges: [Range<String.Index>]
                    if let stemmed {
                        let utf8 = text.utf8
                        ranges = Array(text.utf8).withUnsafeBytes { stemmed.ranges(in: $0) }.map {
                            utf8.index(utf8.startIndex, offsetBy: $0.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: $0.upperBound)
                        }
                    } else {
                        ranges = highlighter.matches(in: text)
                    }
                    matches.append(.init(id: rows.int64(0), text: text, ranges: ranges))
                }
                let count = try index.connection.prepare("SELECT count(*) FROM \(table) WHERE \(table) MATCH ?1")
                count.bind(1, match)
                let total = try count.step() ? Int(count.int64(0)) : matches.count
                return LiveSearchResults(query: query, matches: matches, totalCount: max(total, matches.count))
            }
        }
    }

    /// Runs `body` with SQLite's progress handler checking for the task's cancellation; an
    /// interrupted statement becomes `CancellationError`.
    private func interruptible<R>(_ body: () throws -> R) throws -> R {
        let db = index.connection.handle
        sqlite3_progress_handler(db, 2_000, { _ in Task.isCancelled ? 1 : 0 }, nil)
        defer { sqlite3_progress_handler(db, 0, nil, nil) }
        do {
            return try body()
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
    }
}
