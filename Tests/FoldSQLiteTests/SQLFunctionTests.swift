import CSQLite
import Foundation
@testable import Fold
@testable import FoldSQLite
import Testing

@Suite struct SQLFunctionTests {
    /// fold() and fold_fingerprint() through SQLiteRegistration.register(on:): the library's fold,
    /// NULL in NULL out, numbers and BLOBs as their text, invalid UTF-8 read as U+FFFD, an
    /// unknown or NULL profile an error naming the valid ones.
    @Test func foldAndFingerprint() throws {
        let db = try Database()
        let folder = Folder(.search)
        #expect(try db.rows("SELECT fold('Crème Brûlée'), fold('Ærø ©', 'ascii'), fold(NULL) IS NULL, fold(12.5), fold('')") == [["creme brulee", "aero (c)", "1", "12.5", ""]])
        #expect(try db.rows("SELECT fold(CAST(X'62FF43' AS TEXT)), fold(X'C3A9')") == [["b\u{FFFD}c", "e"]])
        #expect(try db.rows("SELECT fold_fingerprint(), fold_fingerprint('search-de')") == [[folder.fingerprint, Folder(.search.tailored(for: .german)).fingerprint]])
        #expect(try db.rows("SELECT fold('Mueller', 'search-de')") == [["muller"]])
        for bad in ["SELECT fold('x', 'nope')", "SELECT fold('x', NULL)", "SELECT fold_fingerprint('nope')"] {
            do {
                _ = try db.rows(bad)
                Issue.record("\(bad) did not fail")
            } catch let error as FoldSQLiteError {
                #expect(error.message.contains("the valid ones are search, ascii"), "\(error)")
            }
        }
        // The same as the library for text of every kind.
        for text in ["Straße ﬁ ½", "ΆΡΤΟΣ", "ｶﾞｯｺｳ", "İstanbul", "Cre\u{300}me"] {
            #expect(try db.rows("SELECT fold(?1)", [text]) == [[folder.fold(text)]])
        }
    }

    /// Deterministic and innocuous: an expression index that queries use, a generated column, a
    /// trigger.
    @Test func usableInIndexesColumnsAndTriggers() throws {
        let db = try Database()
        try db.execute("PRAGMA trusted_schema = OFF")
        try db.execute("CREATE TABLE people (name TEXT, key TEXT GENERATED ALWAYS AS (fold(name)) STORED)")
        try db.execute("CREATE INDEX people_folded ON people (fold(name))")
        try db.execute("CREATE TABLE log (key TEXT)")
        try db.execute("CREATE TRIGGER people_log AFTER INSERT ON people BEGIN INSERT INTO log VALUES (fold(new.name, 'ascii')); END")
        try db.execute("INSERT INTO people(name) VALUES ('Müller'), ('Łódź'), ('Ærø')")
        #expect(try db.rows("SELECT name, key FROM people WHERE fold(name) = fold('MULLER')") == [["Müller", "muller"]])
        let plan = try db.rows("EXPLAIN QUERY PLAN SELECT name FROM people WHERE fold(name) = fold('LODZ')").map { $0.joined(separator: " ") }.joined()
        #expect(plan.contains("USING INDEX people_folded"), "\(plan)")
        #expect(try db.rows("SELECT key FROM log ORDER BY rowid") == [["muller"], ["lodz"], ["aero"]])
    }
}

@Suite struct TypedDiacriticsTests {
    /// With typed_diacritics, a word typed with a diacritic finds only that diacritic, one typed
    /// without finds all; through raw SQL (Debian's SQLite, the v1 tokenizer) and FTSIndex.
    @Test func aTypedDiacriticFindsOnlyItself() throws {
        let db = try Database()
        try db.execute("CREATE VIRTUAL TABLE w USING fts5(x, tokenize = 'fold search typed_diacritics')")
        try db.execute("INSERT INTO w VALUES ('carnê de pagamento'), ('carne assada'), ('CARNÊ'), ('carnè')")
        func hits(_ query: String) throws -> [String] { try db.rows("SELECT x FROM w WHERE w MATCH ?1 ORDER BY rowid", [query]).map { $0[0] } }
        #expect(try hits("carnê") == ["carnê de pagamento", "CARNÊ"])
        #expect(try hits("CARNÊ") == ["carnê de pagamento", "CARNÊ"])
        #expect(try hits("carnè") == ["carnè"])
        #expect(try hits("carne") == ["carnê de pagamento", "carne assada", "CARNÊ", "carnè"])
        #expect(try hits("carn*") == ["carnê de pagamento", "carne assada", "CARNÊ", "carnè"])
        #expect(try hits("carnê*") == ["carnê de pagamento", "CARNÊ"])
        try db.execute("INSERT INTO w(w, rank) VALUES ('integrity-check', 1)")
        // Without the argument, every spelling finds every row.
        try db.execute("CREATE VIRTUAL TABLE p USING fts5(x, tokenize = 'fold')")
        try db.execute("INSERT INTO p SELECT x FROM w")
        #expect(try db.rows("SELECT count(*) FROM p WHERE p MATCH 'carnê'") == [["4"]])

        try db.execute("CREATE TABLE titles (title TEXT)")
        try db.execute("INSERT INTO titles SELECT x FROM w")
        let index = try FTSIndex(connection: db.handle, table: "titles_fts", columns: ["title"], content: .external(table: "titles"), typedDiacritics: true)
        try index.prepare()
        #expect(try index.recorded().tokenize == "fold search typed_diacritics")
        #expect(try index.search("carnê").map(\.rowid) == [1, 3] || (try index.search("carnê").map(\.rowid)).sorted() == [1, 3])
        #expect(try index.search("carne").count == 4)
        let reopened = try #require(try FTSIndex.existing(connection: db.handle, table: "titles_fts", columns: ["title"], content: .external(table: "titles")))
        #expect(reopened.typedDiacritics)
        #expect(try reopened.needsRebuild() == false)
    }
}

@Suite struct QueryCapTests {
    /// A query's words past FTSQuery.maximumWords are left out of the MATCH, of the count of
    /// ignored words and of what FTSIndexSource marks with.
    @Test func wordsPastTheCapAreIgnoredEverywhere() throws {
        let folder = Folder(.search)
        let query = (1...70).map { "w\($0)" }.joined(separator: " ")
        #expect(FTSQuery.ignoredWordCount(in: query, folder: folder) == 6)
        #expect(FTSQuery.usedText(of: query, folder: folder) == (1...64).map { "w\($0)" }.joined(separator: " "))
        let match = try #require(FTSQuery.match(query, folder: folder))
        #expect(match.hasSuffix("\"w64\"*") && !match.contains("w65"))
        #expect(FTSQuery.usedText(of: "short query", folder: folder) == "short query")
        #expect(FTSQuery.ignoredWordCount(in: "short query", folder: folder) == 0)
    }

    /// The live search folds its query once: a Matcher made from the words of that fold marks
    /// what a Matcher folding the used text itself marks, for every profile, on queries with
    /// accents, ligatures, kana, punctuation between words and words past the cap.
    @Test func marksFromTheQuerysOneFoldEqualAMatchersOwn() throws {
        let queries = ["Crème brû", "ŁÓDŹ kra", "ﬁnal straße", "ｶﾞｷﾞ か\u{3099}", "AT&T l'été", "e\u{301}te\u{301}", "Ὀδυσσεύς",
                       "a.b.c 3.14", "", "   ", (1...70).map { "w\($0)" }.joined(separator: " ")]
        let texts = ["Crème brûlée, crème fraîche", "Łódź Kraków", "final strasse STRASSE", "ガギ が", "AT&T L'ÉTÉ l'ete", "été ete",
                     "ὀδυσσεύς ΟΔΥΣΣΕΥΣ", "a.b.c 3.14 abc", (1...70).map { "w\($0)x" }.joined(separator: " ")]
        for profile in FoldProfile.presets {
            let folder = Folder(profile)
            for query in queries {
                let words = FTSQuery.words(of: query, folder: folder)
                let fromWords = Matcher(foldedWords: words.plain.flatMap { $0 }, of: query, folder: folder, order: .anyOrder)
                let own = Matcher(String(FTSQuery.usedText(of: query, end: words.usedEnd)), folder: folder, mode: .wordPrefixes(.anyOrder))
                #expect(fromWords.queryWords == own.queryWords, "\(profile.name) \(query)")
                for text in texts {
                    #expect(fromWords.matches(in: text) == own.matches(in: text), "\(profile.name) \(query) in \(text)")
                }
            }
        }
    }
}
