internal import CSQLite
import Fold

/// An FTS5 index that knows how it was folded: it records the folder's fingerprint and its
/// tokenizer arguments beside the table, and rebuilds itself before any use when they differ
/// (an older Fold built it, or another profile was asked for), so it is never queried with the
/// wrong fold. An index built by a newer Fold is left as it is, with an error
/// (``needsRebuild()``): the newer fold wins.
///
/// ```swift
/// try SQLiteRegistration.registerTokenizer(on: db)
/// let index = try FTSIndex(connection: db, table: "titles_fts", columns: ["title"],
///                              content: .external(table: "titles"))
/// try index.prepare { done, total in print("\(done)/\(total)") }   // builds or rebuilds if needed
/// let hits = try index.search("creme bru", limit: 20)
/// ```
///
/// Rebuilding happens in one transaction that holds the write lock from its start
/// (`BEGIN IMMEDIATE`), in rowid order, with progress as rows done of rows total; cancelling the
/// task that runs it stops it (through SQLite's progress handler) and leaves the old index as it
/// was; afterwards FTS5's `integrity-check` (rank 1) runs. Whether to rebuild is decided again
/// under that lock, so two processes never rebuild twice, and one never undoes what another
/// just committed. Writes: with `.external` content, triggers on the content table keep the
/// index in step (insert, update, delete); with `.own` content, write through
/// ``insert(_:rowid:)`` and ``delete(rowid:)``, or SQL on the FTS table itself.
///
/// Connections: the index uses the connection it is given as it is. Give it one with a busy
/// timeout (`sqlite3_busy_timeout`; Fold's own connections use
/// ``SQLiteRegistration/defaultBusyTimeout``), or a rebuild fails at once with `SQLITE_BUSY` while
/// another connection writes; WAL mode (`PRAGMA journal_mode = WAL`) lets readers search the
/// old index while a rebuild runs. One connection is not for two threads at once.
public final class FTSIndex {
    /// Where the indexed text lives.
    public enum Content: Sendable, Hashable {
        /// In the FTS table itself.
        case own
        /// In an app table with the same column names, joined by rowid (FTS5 external content).
        case external(table: String)
    }

    /// One hit: the row, and each column with its matches marked.
    public struct Hit: Sendable, Hashable {
        /// The row's rowid.
        public var rowid: Int64
        /// The indexed columns' text, in the order of ``FTSIndex/columns``, with each match
        /// between the marks ``FTSIndex/search(_:limit:prefixLast:open:close:)`` was given.
        public var columns: [String]
    }

    /// The FTS5 table's name (its fingerprint is recorded in `TABLE_fold`).
    public let table: String
    /// The indexed columns.
    public let columns: [String]
    /// Where the indexed text lives.
    public let content: Content
    /// The folder of the index's profile: what its tokenizer and its queries fold with.
    public let folder: Folder
    /// Whether the index keeps typed diacritics (the tokenizer's `typed_diacritics`): a query
    /// word typed with a diacritic finds only that diacritic.
    public let typedDiacritics: Bool
    /// The stemmer after the fold (the `snowball` tokenizer wrapping `fold`), or nil.
    public let stemming: FTSStemming?
    let connection: Connection

    /// An index over `columns`. Checks the tokenizer argument (the profile's name) at once, so
    /// a wrong profile is an error with a message here rather than FTS5's "error in tokenizer
    /// constructor". With `typedDiacritics`, a query word typed with a diacritic finds only
    /// that diacritic (`carnê` finds `carnê`, not `carne`; `carne` finds both). With `stemming`
    /// (FoldSQLiteSnowball's `FTSStemming.snowball("german")`), the tokenizer is the stemmer's
    /// wrapper around `fold`, the recorded fingerprint names the stemmer too, and a search marks
    /// the words whose stems matched (`Running` for `runs`).
    public init(connection: OpaquePointer, table: String, columns: [String], content: Content = .own,
                profile: FoldProfile = .search, typedDiacritics: Bool = false, stemming: FTSStemming? = nil) throws {
        guard !columns.isEmpty else { throw FoldSQLiteError(code: SQLITE_ERROR, message: "an index needs at least one column") }
        guard FoldProfile(named: profile.name) == profile else {
            throw FoldSQLiteError(code: SQLITE_ERROR, message: "the fold tokenizer takes a preset profile (\(SQLiteRegistration.validArguments.joined(separator: ", "))); '\(profile.name)' is not one")
        }
        self.connection = Connection(handle: connection)
        self.table = table
        self.columns = columns
        self.content = content
        self.typedDiacritics = typedDiacritics
        // The stemming again for this index's profile (its stop words folded as the index folds
        // its text), when its wrapper is registered.
        self.stemming = stemming.map { FTSStemming.recorded($0.tokenizerArguments, profile: profile) ?? $0 }
        folder = Folder(profile)
    }

    /// What the index records and compares: the fold's fingerprint, and the stemmer's after a
    /// `+` when it has one.
    ///
    /// ```swift
    /// index.fingerprint   // "fold4-search-u15.0-cldr42-d00b9dd5+snowball2.2.0-english-bc7de471"
    /// ```
    public var fingerprint: String { folder.fingerprint + (stemming.map { "+" + $0.fingerprint } ?? "") }

    /// The index as it was built, for a caller that only searches: its profile is the one
    /// recorded, never one the caller picks, so opening it never rebuilds it to another profile.
    /// When the recorded fingerprint is stale (an older Fold built it), it is rebuilt
    /// with the recorded profile, once, by whichever connection takes the write lock first; the
    /// others wait (the busy timeout) and use what it built. Nil when there is no index.
    ///
    /// ```swift
    /// guard let index = try FTSIndex.existing(connection: db, table: "titles_fts", columns: ["title"],
    ///                                             content: .external(table: "titles")) else { return }
    /// let hits = try index.search("lodz")
    /// ```
    public static func existing(connection: OpaquePointer, table: String, columns: [String], content: Content = .own,
                                progress: (Int, Int) -> Void = { _, _ in }) throws -> FTSIndex? {
        // A writer may change the profile between our read and our check: read it again.
        for _ in 0..<8 {
            let reader = Connection(handle: connection)
            let meta = quoted(table + "_fold")
            guard try reader.scalarText("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?1", [table + "_fold"]) != nil,
                  try reader.scalarText("SELECT name FROM sqlite_master WHERE name = ?1", [table]) != nil,
                  let tokenize = try reader.scalarText("SELECT value FROM \(meta) WHERE key = 'tokenize'") else { return nil }
            guard let (profile, typed, wrapper) = arguments(tokenize: tokenize) else {
                throw FoldSQLiteError(code: SQLITE_ERROR, message: "the index \(table) was built with '\(tokenize)', a profile this version of Fold does not have; the valid ones are \(SQLiteRegistration.validArguments.joined(separator: ", "))")
            }
            var stemming: FTSStemming?
            if !wrapper.isEmpty {
                guard let known = FTSStemming.recorded(wrapper, profile: profile) else {
                    throw FoldSQLiteError(code: SQLITE_ERROR, message: "the index \(table) was built with '\(tokenize)': register the '\(wrapper[0])' tokenizer first (SQLiteRegistration.registerSnowball(on:) from FoldSQLiteSnowball)")
                }
                stemming = known
            }
            let index = try FTSIndex(connection: connection, table: table, columns: columns, content: content, profile: profile, typedDiacritics: typed, stemming: stemming)
            guard try index.needsRebuild() else { return index }
            let outcome: Bool? = try index.connection.withWriteLock {
                let now = try index.recorded()
                guard now.tokenize == index.tokenize else { return nil }   // another profile now: adopt it
                try refuseNewer(now.fingerprint, table: table, folder: index.folder)   // a newer Fold rebuilt it meanwhile
                guard now.fingerprint != index.fingerprint else { return false }   // rebuilt meanwhile
                try index.rebuildHoldingLock(progress: progress)
                return true
            }
            if outcome != nil { return index }
        }
        throw FoldSQLiteError(code: SQLITE_BUSY, message: "the index \(table) keeps changing profile under us")
    }

    /// The profile, typed-diacritics flag and wrapper arguments of a recorded
    /// `[WRAPPER ARGS...] fold NAME [typed_diacritics]` (`NAME` in quotes when it is not a bareword).
    static func arguments(tokenize: String) -> (FoldProfile, Bool, [String])? {
        var words = tokenize.split(separator: " ").map { String($0.filter { $0 != "'" }) }
        guard let at = words.firstIndex(of: "fold") else { return nil }
        let wrapper = Array(words[..<at])
        words.removeFirst(at + 1)
        let typed = words.contains(SQLiteRegistration.typedDiacriticsArgument)
        words.removeAll { $0 == SQLiteRegistration.typedDiacriticsArgument }
        guard words.count <= 1, let profile = FoldProfile(named: words.first ?? "search") else { return nil }
        return (profile, typed, wrapper)
    }

    var metaTable: String { table + "_fold" }
    /// The tokenize option: `fold NAME`, the name quoted when FTS5 would not read it as a
    /// bareword (`fold 'search-de'`).
    var tokenize: String {
        let name = folder.profile.name
        let bare = name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x5F }
        let wrapper = stemming.map { $0.tokenizerArguments.joined(separator: " ") + " " } ?? ""
        return wrapper + (bare ? "fold \(name)" : "fold '\(name)'") + (typedDiacritics ? " " + SQLiteRegistration.typedDiacriticsArgument : "")
    }

    /// The fingerprint and tokenizer arguments the index was built with (nil when it has none).
    ///
    /// ```swift
    /// try index.recorded().fingerprint   // "fold4-search-u15.0-cldr42-d00b9dd5"
    /// ```
    public func recorded() throws -> (fingerprint: String?, tokenize: String?) {
        guard try connection.scalarText("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?1", [metaTable]) != nil,
              try connection.scalarText("SELECT name FROM sqlite_master WHERE name = ?1", [table]) != nil else { return (nil, nil) }
        return (try connection.scalarText("SELECT value FROM \(quoted(metaTable)) WHERE key = 'fingerprint'"),
                try connection.scalarText("SELECT value FROM \(quoted(metaTable)) WHERE key = 'tokenize'"))
    }

    /// Whether the index is missing, or was built with another fingerprint or arguments.
    ///
    /// Two releases of Fold may share one database file. The newer fold wins: an index whose
    /// fingerprint is of a later fold generation (`fold5-...` seen by a Fold that folds
    /// `fold4-...`) is never rebuilt back; this throws a ``FoldSQLiteError`` saying the index
    /// was built by a newer Fold, and the index stays as it is. An older generation is rebuilt.
    public func needsRebuild() throws -> Bool {
        let now = try recorded()
        try Self.refuseNewer(now.fingerprint, table: table, folder: folder)
        return now.fingerprint != fingerprint || now.tokenize != tokenize
    }

    /// The fold generation of a fingerprint: the number of its `foldN-` start (nil when it has
    /// none). Every release whose fold differs from the last one's has a higher generation.
    static func generation(of fingerprint: String) -> Int? {
        guard fingerprint.hasPrefix("fold") else { return nil }
        let digits = fingerprint.dropFirst(4).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, fingerprint.dropFirst(4 + digits.count).first == "-" else { return nil }
        return Int(digits)
    }

    /// Throws when `recorded` is of a later fold generation than `folder`'s.
    static func refuseNewer(_ recorded: String?, table: String, folder: Folder) throws {
        guard let recorded, let theirs = generation(of: recorded), let ours = generation(of: folder.fingerprint), theirs > ours else { return }
        throw FoldSQLiteError(code: SQLITE_ERROR, message: "the index \(table) was built by a newer Fold (\(recorded)); this Fold folds as \(folder.fingerprint) and leaves it as it is: open it with that Fold or a newer one")
    }

    /// Builds the index when it is missing or stale (see ``needsRebuild()``); returns whether it
    /// did. The check is made again under the write lock, so when another connection rebuilt
    /// the index meanwhile, this one uses it. `progress` gets rows done and rows total, growing,
    /// ending at the total. Throws `CancellationError` when the task is cancelled, with the old
    /// index intact.
    @discardableResult
    public func prepare(progress: (Int, Int) -> Void = { _, _ in }) throws -> Bool {
        guard try needsRebuild() else { return false }
        return try connection.withWriteLock {
            guard try needsRebuild() else { return false }
            try rebuildHoldingLock(progress: progress)
            return true
        }
    }

    /// Rebuilds the index from its content, in one transaction that holds the write lock.
    public func rebuild(progress: (Int, Int) -> Void = { _, _ in }) throws {
        try connection.withWriteLock { try rebuildHoldingLock(progress: progress) }
    }

    private func rebuildHoldingLock(progress: (Int, Int) -> Void) throws {
        let db = connection.handle
        let building = table + "_fold_rebuild"
        let source: String?
        switch content {
        case .own:
            let exists = try connection.scalarText("SELECT name FROM sqlite_master WHERE name = ?1", [table]) != nil
            source = exists ? table : nil
        case .external(let contentTable):
            source = contentTable
        }
        let total = try source.map { Int(try connection.scalarText("SELECT count(*) FROM \(quoted($0))") ?? "0") ?? 0 } ?? 0
        // Cancellation reaches SQLite through its progress handler.
        sqlite3_progress_handler(db, 10_000, { _ in Task.isCancelled ? 1 : 0 }, nil)
        defer { sqlite3_progress_handler(db, 0, nil, nil) }
        do {
            let columnList = columns.map(quoted).joined(separator: ", ")
            var options = "tokenize = \(literal(tokenize))"
            if case .external(let contentTable) = content {
                options += ", content = \(literal(contentTable)), content_rowid = 'rowid'"
            }
            try connection.execute("DROP TABLE IF EXISTS \(quoted(building))")
            try connection.execute("CREATE VIRTUAL TABLE \(quoted(building)) USING fts5(\(columnList), \(options))")
            progress(0, total)
            if let source {
                let read = try connection.prepare("SELECT rowid, \(columnList) FROM \(quoted(source)) ORDER BY rowid")
                let write = try connection.prepare("INSERT INTO \(quoted(building))(rowid, \(columnList)) VALUES (?1\(columns.indices.map { ", ?\($0 + 2)" }.joined()))")
                var done = 0
                while try read.step() {
                    write.bind(1, read.int64(0))
                    // The values as stored: every byte (NUL included), so the index matches its content.
                    for k in columns.indices { write.bind(k + 2, columnOf: read, k + 1) }
                    _ = try write.step()
                    write.reset()
                    done += 1
                    if done % 1_000 == 0 {
                        try Task.checkCancellation()
                        progress(done, total)
                    }
                }
                progress(done, total)
            }
            // The triggers name the old table; ALTER TABLE ... RENAME checks them: drop them first
            // (createTriggers makes them again).
            for name in ["ai", "ad", "au"] { try connection.execute("DROP TRIGGER IF EXISTS \(quoted(table + "_fold_" + name))") }
            try connection.execute("DROP TABLE IF EXISTS \(quoted(table))")
            try connection.execute("ALTER TABLE \(quoted(building)) RENAME TO \(quoted(table))")
            try connection.execute("CREATE TABLE IF NOT EXISTS \(quoted(metaTable)) (key TEXT PRIMARY KEY, value TEXT)")
            try connection.execute("INSERT OR REPLACE INTO \(quoted(metaTable)) VALUES ('fingerprint', \(literal(fingerprint))), ('tokenize', \(literal(tokenize)))")
            if case .external(let contentTable) = content { try createTriggers(contentTable) }
            try connection.execute("INSERT INTO \(quoted(table))(\(quoted(table)), rank) VALUES ('integrity-check', 1)")
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
    }

    /// The triggers that keep an external-content index in step with its table.
    private func createTriggers(_ contentTable: String) throws {
        let t = quoted(table), c = quoted(contentTable)
        let cols = columns.map(quoted).joined(separator: ", ")
        let new = columns.map { "new." + quoted($0) }.joined(separator: ", ")
        let old = columns.map { "old." + quoted($0) }.joined(separator: ", ")
        for (name, body) in [
            ("ai", "AFTER INSERT ON \(c) BEGIN INSERT INTO \(t)(rowid, \(cols)) VALUES (new.rowid, \(new)); END"),
            ("ad", "AFTER DELETE ON \(c) BEGIN INSERT INTO \(t)(\(t), rowid, \(cols)) VALUES ('delete', old.rowid, \(old)); END"),
            ("au", "AFTER UPDATE ON \(c) BEGIN INSERT INTO \(t)(\(t), rowid, \(cols)) VALUES ('delete', old.rowid, \(old)); INSERT INTO \(t)(rowid, \(cols)) VALUES (new.rowid, \(new)); END"),
        ] {
            let trigger = quoted(table + "_fold_" + name)
            try connection.execute("DROP TRIGGER IF EXISTS \(trigger)")
            try connection.execute("CREATE TRIGGER \(trigger) \(body)")
        }
    }

    /// Adds a row to an index with `.own` content; returns its rowid.
    ///
    /// ```swift
    /// try index.insert(["Crème brûlée"])
    /// ```
    @discardableResult
    public func insert(_ values: [String], rowid: Int64? = nil) throws -> Int64 {
        guard values.count == columns.count else {
            throw FoldSQLiteError(code: SQLITE_ERROR, message: "\(values.count) values for \(columns.count) columns")
        }
        let names = columns.map(quoted).joined(separator: ", ")
        let s = try connection.prepare("INSERT INTO \(quoted(table))(rowid, \(names)) VALUES (?1\(columns.indices.map { ", ?\($0 + 2)" }.joined()))")
        if let rowid { s.bind(1, rowid) }
        for (k, v) in values.enumerated() { s.bind(k + 2, v) }
        _ = try s.step()
        return sqlite3_last_insert_rowid(connection.handle)
    }

    /// Removes a row from an index with `.own` content.
    public func delete(rowid: Int64) throws {
        let s = try connection.prepare("DELETE FROM \(quoted(table)) WHERE rowid = ?1")
        s.bind(1, rowid)
        _ = try s.step()
    }

    /// One search, run now: the rows that match what the user typed (through ``FTSQuery``, the
    /// last word a prefix; its first ``FTSQuery/maximumWords`` words), best first (bm25), each
    /// column with its matches between `open` and `close`: for a results page or a command line.
    /// (To search as the user types, hand the index to ``FTSIndexSource``, the live-search
    /// source: one search at a time, cancelled when superseded, with a count of all matches.) Marking takes time linear in a row's length (FTS5's
    /// `highlight()`, which this does not use, takes the square of it).
    ///
    /// ```swift
    /// try index.search("creme", limit: 10).map(\.columns)   // [["[Crème] brûlée"]]
    /// ```
    public func search(_ query: String, limit: Int = 50, prefixLast: Bool = true, open: String = "[", close: String = "]") throws -> [Hit] {
        var hits: [Hit] = []
        try forEachMatch(query, limit: limit, prefixLast: prefixLast) { rowid, texts, marks in
            let marked = texts.indices.map { k in
                var out: [UInt8] = []
                let text = texts[k]
                out.reserveCapacity(text.count + marks[k].count * (open.utf8.count + close.utf8.count))
                var at = 0
                for r in marks[k] {
                    out.append(contentsOf: text[at..<r.lowerBound])
                    out.append(contentsOf: open.utf8)
                    out.append(contentsOf: text[r])
                    out.append(contentsOf: close.utf8)
                    at = r.upperBound
                }
                out.append(contentsOf: text[at...])
                return String(decoding: out, as: UTF8.self)
            }
            hits.append(Hit(rowid: rowid, columns: marked))
            return true
        }
        return hits
    }

    /// The rows that match `query`, best first, at most `limit`: for each, its rowid, its
    /// columns' bytes as stored (valid during the call) and the byte ranges to mark in each
    /// (see ``Highlighter``; with `window`, only those up to `window` bytes past a column's
    /// first). `body` returns false to stop.
    package func forEachMatch(_ query: String, limit: Int, prefixLast: Bool = true, window: Int? = nil,
                              _ body: (Int64, [UnsafeRawBufferPointer], [[Range<Int>]]) throws -> Bool) throws {
        // The query folded once: its plain words mark, its typed ones (when the index keeps
        // typed diacritics) search.
        let words = FTSQuery.words(of: query, folder: folder, typedDiacritics: typedDiacritics)
        guard let match = FTSQuery.expression(words.searched, prefixLast: prefixLast, stemming: stemming) else { return }
        let highlighter = Highlighter(phrases: words.plain, folder: folder, prefixLast: prefixLast, stem: stemming?.stem)
        let columnList = columns.map(quoted).joined(separator: ", ")
        let s = try connection.prepare("SELECT rowid, \(columnList) FROM \(quoted(table)) WHERE \(quoted(table)) MATCH ?1 ORDER BY rank LIMIT ?2")
        s.bind(1, match)
        s.bind(2, Int64(max(0, limit)))
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        while try s.step() {
            let texts = columns.indices.map { s.bytes($0 + 1) ?? empty }
            let marks = texts.map { highlighter.ranges(in: $0, window: window) }
            guard try body(s.int64(0), texts, marks) else { return }
        }
    }
}
