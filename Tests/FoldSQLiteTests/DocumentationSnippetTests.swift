import CSQLite
@testable import Fold
@testable import FoldSQLite
import Testing

// The FoldSQLite snippets of README.md and of Sources/FoldSQLite/FoldSQLite.docc, kept as test
// code between `// --- FILE, SECTION ---` and `// --- end ---` with their stated results checked.
// Tests/FoldTests/DocumentationSnippetTests.swift reads the documents and fails when a snippet
// is not here (or in the other snippet test files); the GRDB example is in
// Integrations/Tests/GRDBExampleTests.

/// A new in-memory database with nothing registered: the snippets register Fold themselves.
/// `db` is what the documents call the connection's `sqlite3 *`.
final class SnippetDatabase {
    let db: OpaquePointer
    init() throws {
        var handle: OpaquePointer? = nil
        guard sqlite3_open(":memory:", &handle) == SQLITE_OK, let handle else { throw FoldSQLiteError(code: 1, message: "cannot open :memory:") }
        db = handle
    }
    deinit { sqlite3_close_v2(db) }
}

@Suite struct FoldSQLiteDocumentationSnippets {
    @Test func readmeAndLandingPage() throws {
        let database = try SnippetDatabase()
        let db = database.db
        // --- README.md "A tour in code: SQLite" and FoldSQLite.md "Overview" ---
        try SQLiteRegistration.register(on: db)
        let index = try FTSIndex(connection: db, table: "titles_fts", columns: ["title"])
        try index.prepare()
        try index.insert(["Straße in Łódź"])
        #expect(try index.search("lodz").map(\.columns) == [["Straße in [Łódź]"]])
        // --- end ---
    }

    @Test func withARawHandle() throws {
        let database = try SnippetDatabase()
        let db = database.db
        // --- SQLiteFTS5.md, With GRDB (a raw handle) ---
        try SQLiteRegistration.register(on: db)
        let index = try FTSIndex(connection: db, table: "titles_fts", columns: ["title"])
        try index.prepare()
        try index.insert(["Straße in Łódź"])
        try index.insert(["Crème brûlée"])
        #expect(try index.search("creme bru").map(\.columns) == [["[Crème] [brûlée]"]])
        #expect(try index.search("STRASSE").map(\.rowid) == [1])
        // --- end ---

        // --- SQLiteFTS5.md, An index that knows how it was folded ---
        if let reader = try FTSIndex.existing(connection: db, table: "titles_fts", columns: ["title"]) {
            #expect(try reader.search("lodz").count == 1)
        } else {
            Issue.record("no index")
        }
        // --- end ---
    }

    @Test func typedDiacritics() throws {
        let database = try SnippetDatabase()
        let db = database.db
        try SQLiteRegistration.register(on: db)
        // --- SQLiteFTS5.md, Typed diacritics ---
        let words = try FTSIndex(connection: db, table: "words_fts", columns: ["word"], typedDiacritics: true)
        try words.prepare()
        for word in ["carne", "carnê", "CARNÊ", "carnè"] { try words.insert([word]) }
        #expect(try words.search("carnê").map(\.rowid).sorted() == [2, 3])
        #expect(try words.search("carne").count == 4)
        // --- end ---
    }

    @Test func safeQueries() throws {
        // --- SQLiteFTS5.md, Safe queries ---
        let folder = Folder()
        #expect(FTSQuery.match("Crème brû", folder: folder) == "\"creme\" \"bru\"*")
        #expect(FTSQuery.match("AT&T", folder: folder) == "\"at\" \"t\"*")
        #expect(FTSQuery.match("東京", folder: folder) == "\"東 京\"*")
        #expect(FTSQuery.match("*", folder: folder) == nil)
        // --- end ---
    }

    @Test func searchAsYouTypeOverSQLite() async throws {
        let database = try SnippetDatabase()
        let db = database.db
        try SQLiteRegistration.register(on: db)
        let titles = try FTSIndex(connection: db, table: "titles_fts", columns: ["title"])
        try titles.prepare()
        try titles.insert(["Straße in Łódź"])
        // --- SQLiteFTS5.md, Search as you type ---
        let live = LiveSearch(FTSIndexSource(try FTSIndex(connection: db, table: "titles_fts", columns: ["title"])))
        // --- end ---
        live.submit("lodz")
        for await update in live.updates {
            if case .results(let results) = update {
                #expect(results.matches.map(\.text) == ["Straße in Łódź"])
                break
            }
        }
    }

    @Test func busyTimeout() throws {
        let database = try SnippetDatabase()
        let db = database.db
        // --- ConcurrencyAndExitCodes.md, Connections and busy timeouts ---
        #expect(sqlite3_busy_timeout(db, Int32(SQLiteRegistration.defaultBusyTimeout.components.seconds * 1000)) == SQLITE_OK)
        // --- end ---
    }
}
