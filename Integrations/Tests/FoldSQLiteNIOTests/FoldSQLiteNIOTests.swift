import FoldSQLiteNIO
import SQLiteNIO
import Testing

/// FoldSQLiteNIO on sqlite-nio's own SQLite (3.54.1 in sqlite-nio 1.13.2), through sqlite-nio's
/// async API, as a Vapor app uses it. sqlite-nio is built with SQLITE_DQS=0: string literals are
/// in single quotes.
@Suite struct FoldSQLiteNIOTests {
    /// `body` with a new in-memory connection, opened after the (idempotent, process-wide)
    /// install as an app does, and closed afterwards. Every test installs: they run in any order
    /// and in parallel.
    @discardableResult
    func withConnection<T>(_ body: (SQLiteConnection) async throws -> T) async throws -> T {
        try FoldSQLiteNIO.install()
        let db = try await SQLiteConnection.open(storage: .memory)
        do {
            let result = try await body(db)
            try await db.close()
            return result
        } catch {
            try? await db.close()
            throw error
        }
    }

    /// The first column of each row, as text.
    func texts(_ db: SQLiteConnection, _ sql: String, _ binds: [SQLiteData] = []) async throws -> [String?] {
        try await db.query(sql, binds).map { $0.columns.first?.data.string }
    }

    @Test func runsOnSQLiteNIOsOwnSQLite() async throws {
        try await withConnection { db in
            let version = try #require(try await texts(db, "SELECT sqlite_version()").first ?? nil)
            // The library sqlite-nio links, not the system's (Debian's 3.40.1); and new enough for
            // FTS5's v2 tokenizer (3.47), which the locale test needs.
            #expect(version == SQLiteConnection.libraryVersionString())
            #expect(SQLiteConnection.libraryVersion() >= 3_047_000, "sqlite-nio's SQLite is \(version)")
        }
    }

    @Test func foldTokenizerMatchesFoldedWords() async throws {
        try await withConnection { db in
            _ = try await db.query("CREATE VIRTUAL TABLE titles USING fts5(title, tokenize = 'fold')")
            _ = try await db.query("INSERT INTO titles(rowid, title) VALUES (1, 'Straße in Łódź'), (2, 'Crème brûlée')")
            #expect(try await texts(db, "SELECT title FROM titles WHERE titles MATCH 'lodz'") == ["Straße in Łódź"])
            #expect(try await texts(db, "SELECT title FROM titles WHERE titles MATCH 'strasse'") == ["Straße in Łódź"])
            #expect(try await texts(db, "SELECT title FROM titles WHERE titles MATCH 'creme AND brulee'") == ["Crème brûlée"])
            // FTS5's highlight() marks the original bytes each token came from.
            #expect(try await texts(db, "SELECT highlight(titles, 0, '[', ']') FROM titles WHERE titles MATCH 'creme'") == ["[Crème] brûlée"])
        }
    }

    @Test func snowballStemsAfterTheFold() async throws {
        try await withConnection { db in
            _ = try await db.query("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = 'snowball english stopwords fold', locale = 1)")
            _ = try await db.query("INSERT INTO docs(rowid, body) VALUES (1, 'Running shoes for Crème brûlée lovers'), (2, fts5_locale('de', 'Die Häuser für alle'))")
            #expect(try await texts(db, "SELECT highlight(docs, 0, '[', ']') FROM docs WHERE docs MATCH 'runs lover'") == ["[Running] shoes for Crème brûlée [lovers]"])
            #expect(try await texts(db, "SELECT body FROM docs WHERE docs MATCH 'runni*'") == ["Running shoes for Crème brûlée lovers"])
            #expect(try await texts(db, "SELECT body FROM docs WHERE docs MATCH fts5_locale('de', 'haus')") == ["Die Häuser für alle"])
            #expect(try await texts(db, "SELECT body FROM docs WHERE docs MATCH fts5_locale('de', 'fur')") == [])
        }
    }

    @Test func sqlFunctions() async throws {
        try await withConnection { db in
            #expect(try await texts(db, "SELECT fold('Crème Brûlée')") == ["creme brulee"])
            #expect(try await texts(db, "SELECT fold(?1)", [.text("Straße")]) == ["strasse"])
            #expect(try await texts(db, "SELECT fold(NULL)") == [nil])
            let fingerprint = try #require(try await texts(db, "SELECT fold_fingerprint()").first ?? nil)
            #expect(fingerprint.hasPrefix("fold4-search-u"), "\(fingerprint)")
        }
    }

    /// An unknown profile is an SQL error: reaches the host's result_error through the routines
    /// table (the one routine the happy paths above do not call).
    @Test func unknownProfileIsAnSQLError() async throws {
        try await withConnection { db in
            await #expect {
                _ = try await db.query("SELECT fold('x', 'no-such-profile')")
            } throws: { error in
                "\(error)".contains("unknown fold profile 'no-such-profile'")
            }
        }
    }

    /// The auto-extension runs for every open, not only the first.
    @Test func everyConnectionGetsFold() async throws {
        try await withConnection { first in try await withConnection { second in
            #expect(try await texts(first, "SELECT fold('Ærø')") == ["aero"])
            #expect(try await texts(second, "SELECT fold('Ærø')") == ["aero"])
            _ = try await second.query("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'fold')")
            _ = try await second.query("INSERT INTO t VALUES ('Ærøskøbing')")
            #expect(try await texts(second, "SELECT x FROM t WHERE t MATCH 'aeroskobing'") == ["Ærøskøbing"])
        }}
    }

    /// FTS5's v2 tokenizer (SQLite 3.47 and later) gets each text's locale: `de` folds with the
    /// German tailoring (`ue` folds like `ü`: Mueller = Müller = muller), so the German query
    /// `mueller` finds the German `Müller`, while the same query without a locale finds only the
    /// row stored as `Mueller` without one.
    @Test func localeSelectsTheTailoring() async throws {
        try await withConnection { db in
            _ = try await db.query("CREATE VIRTUAL TABLE people USING fts5(name, tokenize = 'fold', locale = 1)")
            _ = try await db.query("INSERT INTO people(rowid, name) VALUES (1, fts5_locale('de', 'Müller'))")
            _ = try await db.query("INSERT INTO people(rowid, name) VALUES (2, 'Mueller')")
            func rowids(_ match: String) async throws -> [Int?] {
                try await db.query("SELECT rowid FROM people WHERE people MATCH \(match) ORDER BY rowid").map { $0.columns.first?.data.integer }
            }
            #expect(try await rowids("fts5_locale('de', 'mueller')") == [1])
            #expect(try await rowids("'mueller'") == [2])
        }
    }
}
