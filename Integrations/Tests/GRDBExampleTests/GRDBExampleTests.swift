import Foundation
import FoldSQLite
import GRDB
import Testing

/// The GRDB example of FoldSQLite's "SQLite FTS5" article, compiled and run: FoldSQLite registered in
/// `prepareDatabase` on GRDB's connection to the system SQLite, an `FTSIndex` over an app
/// table, and `fold()` in SQL through GRDB.
@Suite struct GRDBExampleTests {
    /// An in-memory queue whose every connection has Fold's tokenizer and SQL functions.
    func queue() throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { db in try SQLiteRegistration.register(on: db.sqliteConnection!) }
        let queue = try DatabaseQueue(configuration: config)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE titles(title TEXT)")
            for title in ["Straße in Łódź", "Crème brûlée", "Ærøskøbing"] {
                try db.execute(sql: "INSERT INTO titles(title) VALUES (?)", arguments: [title])
            }
        }
        return queue
    }

    @Test func foldFTSIndexOverAGRDBTable() throws {
        let queue = try queue()
        // Outside GRDB's transaction: FTSIndex builds in its own (BEGIN IMMEDIATE).
        let hits = try queue.writeWithoutTransaction { db in
            let index = try FTSIndex(connection: db.sqliteConnection!, table: "titles_fts", columns: ["title"],
                                         content: .external(table: "titles"))
            try index.prepare()
            return try index.search("lodz")
        }
        #expect(hits.map(\.columns) == [["Straße in [Łódź]"]])
        #expect(hits.map(\.rowid) == [1])
        // The index's triggers keep it in step with rows GRDB writes afterwards.
        let later = try queue.write { db in
            try db.execute(sql: "INSERT INTO titles(title) VALUES ('Łódź Fabryczna')")
            return try String.fetchAll(db, sql: "SELECT title FROM titles_fts WHERE titles_fts MATCH 'lodz' ORDER BY rowid")
        }
        #expect(later == ["Straße in Łódź", "Łódź Fabryczna"])
    }

    @Test func foldInSQLThroughGRDB() throws {
        let folded = try queue().read { db in
            try String.fetchAll(db, sql: "SELECT fold(title) FROM titles ORDER BY rowid")
        }
        #expect(folded == ["strasse in lodz", "creme brulee", "aeroskobing"])
    }
}

/// The GRDB example as written in Sources/FoldSQLite/FoldSQLite.docc/SQLiteFTS5.md (in a temporary
/// directory), with its stated results. Tests/FoldTests/DocumentationSnippetTests.swift checks that
/// the article's snippet is the code between the markers below.
@Test func theREADMEExampleAsWritten() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fold-grdb-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = FileManager.default.changeCurrentDirectoryPath(directory.path)
    var progress: [String] = []
    func print(_ line: String) { progress.append(line) }

    // --- SQLiteFTS5.md, "With GRDB" ---
    var config = Configuration()
    config.prepareDatabase { db in try SQLiteRegistration.register(on: db.sqliteConnection!) }
    let queue = try DatabaseQueue(path: "titles.db", configuration: config)
    try queue.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS titles(title TEXT)")
        try db.execute(sql: "INSERT INTO titles(title) VALUES ('Straße in Łódź'), ('Crème brûlée')")
    }
    // FTSIndex takes the write lock itself (BEGIN IMMEDIATE): run it outside GRDB's transaction.
    let hits = try queue.writeWithoutTransaction { db in
        let index = try FTSIndex(connection: db.sqliteConnection!, table: "titles_fts", columns: ["title"],
                                     content: .external(table: "titles"))
        try index.prepare { done, total in print("\(done)/\(total)") }   // builds, or rebuilds if stale
        return try index.search("lodz")
    }
    #expect(hits.map(\.columns) == [["Straße in [Łódź]"]])
    #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT fold(title) FROM titles") } == ["strasse in lodz", "creme brulee"])
    // --- end ---
    #expect(progress.last == "2/2")
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("titles.db").path))
}
