internal import CSQLite
import Fold

/// An FTS5 index that knows how it was folded: it records the folder's fingerprint and its
/// tokenizer arguments beside the table, and rebuilds itself before any use when they differ
/// (Fold, ICU or Unicode changed, or another profile was asked for), so it is never queried
/// with the wrong fold.
///
/// ```swift
/// try FoldSQLite.registerTokenizer(on: db)
/// let index = try FoldFTSIndex(connection: db, table: "titles_fts", columns: ["title"],
///                              content: .external(table: "titles"))
/// try index.prepare { done, total in print("\(done)/\(total)") }   // builds or rebuilds if needed
/// let hits = try index.search("creme bru", limit: 20)
/// ```
///
/// Rebuilding happens in one transaction, in rowid order, with progress as rows done of rows
/// total; cancelling the task that runs it stops it (through SQLite's progress handler) and
/// leaves the old index as it was; afterwards FTS5's `integrity-check` (rank 1) runs. Writes:
/// with `.external` content, triggers on the content table keep the index in step (insert,
/// update, delete); with `.own` content, write through ``insert(_:rowid:)`` and
/// ``delete(rowid:)``, or SQL on the FTS table itself.
public final class FoldFTSIndex {
    /// Where the indexed text lives.
    public enum Content: Sendable, Hashable {
        /// In the FTS table itself.
        case own
        /// In an app table with the same column names, joined by rowid (FTS5 external content).
        case external(table: String)
    }

    /// One hit: the row, and each column with its matches marked.
    public struct Hit: Sendable, Hashable {
        public var rowid: Int64
        public var columns: [String]
    }

    public let table: String
    public let columns: [String]
    public let content: Content
    public let folder: Folder
    let connection: Connection

    /// An index over `columns`. Checks the tokenizer argument (the profile's name) at once, so
    /// a wrong profile is an error with a message here rather than FTS5's "error in tokenizer
    /// constructor".
    public init(connection: OpaquePointer, table: String, columns: [String], content: Content = .own,
                profile: FoldProfile = .search) throws {
        guard !columns.isEmpty else { throw FoldSQLiteError(code: SQLITE_ERROR, message: "an index needs at least one column") }
        guard FoldProfile(named: profile.name) == profile else {
            throw FoldSQLiteError(code: SQLITE_ERROR, message: "the fold tokenizer takes a preset profile (\(FoldSQLite.validArguments.joined(separator: ", "))); '\(profile.name)' is not one")
        }
        self.connection = Connection(handle: connection)
        self.table = table
        self.columns = columns
        self.content = content
        folder = try Folder(profile)
    }

    var metaTable: String { table + "_fold" }
    /// The tokenize option: `fold NAME`, the name quoted when FTS5 would not read it as a
    /// bareword (`fold 'search-de'`).
    var tokenize: String {
        let name = folder.profile.name
        let bare = name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x5F }
        return bare ? "fold \(name)" : "fold '\(name)'"
    }

    /// The fingerprint and tokenizer arguments the index was built with (nil when it has none).
    ///
    /// ```swift
    /// try index.recorded().fingerprint   // "fold3-search-u15.0-icu72.1-ddb14e22"
    /// ```
    public func recorded() throws -> (fingerprint: String?, tokenize: String?) {
        guard try connection.scalarText("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?1", [metaTable]) != nil else { return (nil, nil) }
        return (try connection.scalarText("SELECT value FROM \(quoted(metaTable)) WHERE key = 'fingerprint'"),
                try connection.scalarText("SELECT value FROM \(quoted(metaTable)) WHERE key = 'tokenize'"))
    }

    /// Whether the index is missing, or was built with another fingerprint or arguments.
    public func needsRebuild() throws -> Bool {
        let exists = try connection.scalarText("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?1", [metaTable]) != nil
        guard exists,
              try connection.scalarText("SELECT name FROM sqlite_master WHERE name = ?1", [table]) != nil else { return true }
        let fingerprint = try connection.scalarText("SELECT value FROM \(quoted(metaTable)) WHERE key = 'fingerprint'")
        let arguments = try connection.scalarText("SELECT value FROM \(quoted(metaTable)) WHERE key = 'tokenize'")
        return fingerprint != folder.fingerprint || arguments != tokenize
    }

    /// Builds the index when it is missing or stale (see ``needsRebuild()``); returns whether it
    /// did. `progress` gets rows done and rows total, growing, ending at the total. Throws
    /// `CancellationError` when the task is cancelled, with the old index intact.
    @discardableResult
    public func prepare(progress: (Int, Int) -> Void = { _, _ in }) throws -> Bool {
        guard try needsRebuild() else { return false }
        try rebuild(progress: progress)
        return true
    }

    /// Rebuilds the index from its content, in one transaction.
    public func rebuild(progress: (Int, Int) -> Void = { _, _ in }) throws {
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
        try connection.execute("SAVEPOINT fold_rebuild")
        do {
            let columnList = columns.map(quoted).joined(separator: ", ")
            var options = "tokenize = \(literal(tokenize))"
            if case .external(let contentTable) = content {
                options += ", content = \(literal(contentTable)), content_rowid = 'rowid'"
            }
            try connection.execute("CREATE VIRTUAL TABLE \(quoted(building)) USING fts5(\(columnList), \(options))")
            if let source {
                let read = try connection.prepare("SELECT rowid, \(columnList) FROM \(quoted(source)) ORDER BY rowid")
                let write = try connection.prepare("INSERT INTO \(quoted(building))(rowid, \(columnList)) VALUES (?1\(columns.indices.map { ", ?\($0 + 2)" }.joined()))")
                var done = 0
                while try read.step() {
                    write.bind(1, read.int64(0))
                    for k in columns.indices { write.bind(k + 2, read.text(k + 1) ?? "") }
                    _ = try write.step()
                    write.reset()
                    done += 1
                    if done % 1_000 == 0 {
                        try Task.checkCancellation()
                        progress(done, total)
                    }
                }
                progress(done, total)
            } else {
                progress(0, 0)
            }
            // The triggers name the old table; ALTER TABLE ... RENAME checks them: drop them first
            // (createTriggers makes them again).
            for name in ["ai", "ad", "au"] { try connection.execute("DROP TRIGGER IF EXISTS \(quoted(table + "_fold_" + name))") }
            try connection.execute("DROP TABLE IF EXISTS \(quoted(table))")
            try connection.execute("ALTER TABLE \(quoted(building)) RENAME TO \(quoted(table))")
            try connection.execute("CREATE TABLE IF NOT EXISTS \(quoted(metaTable)) (key TEXT PRIMARY KEY, value TEXT)")
            try connection.execute("INSERT OR REPLACE INTO \(quoted(metaTable)) VALUES ('fingerprint', \(literal(folder.fingerprint))), ('tokenize', \(literal(tokenize)))")
            if case .external(let contentTable) = content { try createTriggers(contentTable) }
            try connection.execute("INSERT INTO \(quoted(table))(\(quoted(table)), rank) VALUES ('integrity-check', 1)")
            try connection.execute("RELEASE fold_rebuild")
        } catch {
            sqlite3_progress_handler(db, 0, nil, nil)
            try? connection.execute("ROLLBACK TO fold_rebuild")
            try? connection.execute("RELEASE fold_rebuild")
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

    /// The rows that match what the user typed (through ``FoldQuery``, the last word a prefix),
    /// best first (bm25), each column with its matches between `open` and `close`.
    ///
    /// ```swift
    /// try index.search("creme", limit: 10).map(\.columns)   // [["[Crème] brûlée"]]
    /// ```
    public func search(_ query: String, limit: Int = 50, prefixLast: Bool = true, open: String = "[", close: String = "]") throws -> [Hit] {
        guard let match = FoldQuery.match(query, folder: folder, prefixLast: prefixLast) else { return [] }
        let marked = columns.indices.map { "highlight(\(quoted(table)), \($0), ?2, ?3)" }.joined(separator: ", ")
        let s = try connection.prepare("SELECT rowid, \(marked) FROM \(quoted(table)) WHERE \(quoted(table)) MATCH ?1 ORDER BY rank LIMIT ?4")
        s.bind(1, match)
        s.bind(2, open)
        s.bind(3, close)
        s.bind(4, Int64(limit))
        var hits: [Hit] = []
        while try s.step() {
            hits.append(Hit(rowid: s.int64(0), columns: columns.indices.map { s.text($0 + 1) ?? "" }))
        }
        return hits
    }
}
