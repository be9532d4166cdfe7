import CFoldSQLite
import CSQLite
import Foundation
import Fold
@testable import FoldSQLite
@testable import FoldSQLiteSnowball
import FoldSnowball
import Testing

/// A fresh in-memory database with Fold's tokenizers (fold, snowball) and SQL functions.
final class Database {
    let handle: OpaquePointer
    init(path: String = ":memory:", snowball: Bool = true) throws {
        var db: OpaquePointer? = nil
        guard sqlite3_open(path, &db) == SQLITE_OK, let db else { throw FoldSQLiteError(code: 1, message: "cannot open \(path)") }
        handle = db
        try SQLiteRegistration.register(on: db)
        if snowball { try SQLiteRegistration.registerSnowball(on: db) }
    }
    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws { try Connection(handle: handle).execute(sql) }

    /// Every row of a query, as text.
    func rows(_ sql: String, _ arguments: [String] = []) throws -> [[String]] {
        let s = try Connection(handle: handle).prepare(sql)
        for (k, a) in arguments.enumerated() { s.bind(k + 1, a) }
        var out: [[String]] = []
        while try s.step() { out.append((0..<s.columnCount).map { s.text($0) ?? "" }) }
        return out
    }

    /// The column of a one-column query.
    func column(_ sql: String, _ arguments: [String] = []) throws -> [String] { try rows(sql, arguments).map { $0[0] } }
}

@Suite struct SnowballTokenizerTests {
    @Test func stemsAfterTheFoldAndMarksTheOriginals() throws {
        let db = try Database()
        try db.execute("CREATE VIRTUAL TABLE d USING fts5(x, tokenize = 'snowball english fold')")
        try db.execute("INSERT INTO d VALUES ('Running shoes for Crème brûlée lovers'), ('Run Shoe'), ('the RUNNER')")
        #expect(try db.column("SELECT highlight(d, 0, '[', ']') FROM d WHERE d MATCH 'runs' ORDER BY rowid") == ["[Running] shoes for Crème brûlée lovers", "[Run] Shoe"])
        #expect(try db.column("SELECT rowid FROM d WHERE d MATCH 'shoe lover'") == ["1"])
        #expect(try db.column("SELECT highlight(d, 0, '[', ']') FROM d WHERE d MATCH 'creme brulee'") == ["Running shoes for [Crème] [brûlée] lovers"])
        // A prefix finds the unstemmed word although the stem is shorter.
        #expect(try db.column("SELECT highlight(d, 0, '[', ']') FROM d WHERE d MATCH 'runni*'") == ["[Running] shoes for Crème brûlée lovers"])
        #expect(try db.column("SELECT rowid FROM d WHERE d MATCH 'runne*'") == ["3"])
        // What the index holds: stems, and beside them the words they came from.
        try db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(d, 'row')")
        #expect(try db.column("SELECT term FROM v ORDER BY term") == ["brule", "brulee", "creme", "for", "lover", "lovers", "run", "runner", "running", "shoe", "shoes", "the"])
        try db.execute("INSERT INTO d(d, rank) VALUES ('integrity-check', 1)")
    }

    @Test func germanStopWordsAreDroppedTypedEitherWay() throws {
        let db = try Database()
        try db.execute("CREATE VIRTUAL TABLE g USING fts5(x, tokenize = 'snowball german stopwords fold')")
        try db.execute("INSERT INTO g VALUES ('Die Häuser für alle'), ('Ein Haus fur Fur'), ('FÜR')")
        try db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(g, 'row')")
        #expect(try db.column("SELECT term FROM v ORDER BY term") == ["haus", "hauser"])
        #expect(try db.column("SELECT rowid FROM g WHERE g MATCH 'hauser' ORDER BY rowid") == ["1", "2"])
        #expect(try db.column("SELECT highlight(g, 0, '[', ']') FROM g WHERE g MATCH 'hause*'") == ["Die [Häuser] für alle"])
        #expect(try db.column("SELECT rowid FROM g WHERE g MATCH 'für'").isEmpty)
        // Without `stopwords` they stay.
        try db.execute("CREATE VIRTUAL TABLE k USING fts5(x, tokenize = 'snowball german fold')")
        try db.execute("INSERT INTO k VALUES ('Die Häuser für alle')")
        #expect(try db.column("SELECT rowid FROM k WHERE k MATCH 'fur'") == ["1"])
        // French: où and ou.
        try db.execute("CREATE VIRTUAL TABLE f USING fts5(x, tokenize = 'snowball french stopwords fold')")
        try db.execute("INSERT INTO f VALUES ('Où est la gare'), ('ou bien')")
        try db.execute("CREATE VIRTUAL TABLE fv USING fts5vocab(f, 'row')")
        #expect(try db.column("SELECT term FROM fv ORDER BY term") == ["bien", "gar", "gare"])
    }

    @Test func argumentsAreLanguagesThenTheWrappedTokenizer() throws {
        let db = try Database()
        // Languages tried in order: the first whose stemmer changes a word gives its stem.
        try db.execute("CREATE VIRTUAL TABLE m USING fts5(x, tokenize = 'snowball spanish english fold')")
        try db.execute("INSERT INTO m VALUES ('casas running')")
        try db.execute("CREATE VIRTUAL TABLE mv USING fts5vocab(m, 'row')")
        #expect(try db.column("SELECT term FROM mv ORDER BY term") == ["cas", "casas", "run", "running"])
        // The wrapped tokenizer's arguments: fold ascii.
        try db.execute("CREATE VIRTUAL TABLE a USING fts5(x, tokenize = 'snowball french fold ascii')")
        try db.execute("INSERT INTO a VALUES ('Œuvres complètes ½')")
        try db.execute("CREATE VIRTUAL TABLE av USING fts5vocab(a, 'row')")
        #expect(try db.column("SELECT term FROM av ORDER BY term") == ["1", "2", "complet", "completes", "oeuvr", "oeuvres"])
        // No language: English; nothing wrapped: fold.
        try db.execute("CREATE VIRTUAL TABLE e USING fts5(x, tokenize = 'snowball')")
        try db.execute("INSERT INTO e VALUES ('Crème LOVERS')")
        #expect(try db.column("SELECT rowid FROM e WHERE e MATCH 'lover creme'") == ["1"])
        // Another wrapped tokenizer: unicode61.
        try db.execute("CREATE VIRTUAL TABLE u USING fts5(x, tokenize = 'snowball english unicode61 remove_diacritics 2')")
        try db.execute("INSERT INTO u VALUES ('Crème lovers')")
        #expect(try db.column("SELECT rowid FROM u WHERE u MATCH 'lover'") == ["1"])
        // porter fold still works.
        try db.execute("CREATE VIRTUAL TABLE p USING fts5(x, tokenize = 'porter fold')")
        try db.execute("INSERT INTO p VALUES ('Running Crème')")
        #expect(try db.column("SELECT rowid FROM p WHERE p MATCH 'run creme'") == ["1"])
        // A typed-diacritics fold passes its typed forms through, stemmed too.
        try db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'snowball portuguese fold search typed_diacritics')")
        try db.execute("INSERT INTO t VALUES ('carnês'), ('carnes')")
        #expect(try db.column("SELECT rowid FROM t WHERE t MATCH 'carnes' ORDER BY rowid") == ["1", "2"])
    }

    /// In a prefix phrase FTS5 flags every token as a prefix: only the last stays unstemmed,
    /// the others are stemmed or dropped as in the documents.
    @Test func prefixPhrasesStemAllButTheirLastWord() throws {
        let db = try Database()
        try db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'snowball english stopwords fold')")
        try db.execute("INSERT INTO t VALUES ('The Lord of the Rings'), ('Running shoes'), ('lords')")
        #expect(try db.column("SELECT rowid FROM t WHERE t MATCH '\"lord of the ri\"*'") == ["1"])
        #expect(try db.column("SELECT rowid FROM t WHERE t MATCH '\"lords of the rings\"'") == ["1"])
        #expect(try db.column("SELECT rowid FROM t WHERE t MATCH '\"runs shoe\"*'") == ["2"])
        #expect(try db.column("SELECT rowid FROM t WHERE t MATCH 'lord*' ORDER BY rowid") == ["1", "3"])
    }

    /// The query builder leaves out words the stemmer drops: a query whose first words are stop
    /// words still finds what its last word begins.
    @Test func leadingStopWordsDoNotEmptyAQuery() async throws {
        let db = try Database()
        try db.execute("CREATE TABLE docs (body TEXT)")
        try db.execute("INSERT INTO docs VALUES ('The Runner'), ('Die Häuser')")
        let stemming = try FTSStemming.snowball("english", droppingStopWords: true)
        #expect(FTSQuery.match("the runn", folder: Folder(), stemming: stemming) == "(\"runn\"* OR \"runn\")")
        #expect(FTSQuery.match("the shoe runs", folder: Folder(), stemming: stemming) == "\"shoe\" AND (\"runs\"* OR \"runs\")")
        #expect(FTSQuery.match("the of ", folder: Folder(), prefixLast: false, stemming: stemming) == nil)
        let index = try FTSIndex(connection: db.handle, table: "docs_fts", columns: ["body"], content: .external(table: "docs"), stemming: stemming)
        try index.prepare()
        #expect(try index.search("the runn").map(\.columns) == [["The [Runner]"]])
        #expect(try index.search("the the runner").map(\.columns) == [["The [Runner]"]])
        let results = try await FTSIndexSource(index).search("the runn", limit: 5)
        #expect(results.totalCount == 1)
    }

    /// A locale picks its language's stemmer and stop list (made once per language code); one
    /// that names neither a Snowball language nor a tailoring is the table's. (Here SQLite is
    /// 3.40, without locales, so the wrapped fold gets none: Tests/Scripts/apsw_locale.py checks
    /// in SQLite 3.47 that the list is folded with the locale's tailoring, `på` kept in Swedish.)
    @Test func aLocalesStopWordsAreFoldedWithItsTailoring() throws {
        let db = try Database()
        let api = try #require(cfoldsqlite_fts5_api(db.handle))
        let parsed = try SnowballArguments.parse(["swedish", "stopwords", "fold"]).get()
        let instance = try #require(SnowballInstance(arguments: parsed, api: UnsafeMutableRawPointer(api)))
        func stops(_ locale: String?) -> Set<String> {
            var bytes = Array((locale ?? "").utf8)
            return bytes.withUnsafeMutableBufferPointer { buffer in
                instance.lock.withLock {
                    Set(instance.stemmers(locale: locale == nil ? nil : UnsafeBufferPointer(buffer)).stopWords.map { String(decoding: $0, as: UTF8.self) })
                }
            }
        }
        #expect(stops(nil).contains("pa") && stops(nil).contains("for"))
        #expect(stops("de").contains("fur") && !stops("de").contains("pa"))    // German's list
        #expect(stops("sv_SE") == stops(nil))
        #expect(stops("xx") == stops(nil))                                       // neither a language nor a tailoring
    }

    @Test func badArgumentsFailToMakeTheTable() throws {
        let db = try Database()
        for tokenize in ["snowball klingon fold", "snowball greek stopwords fold", "snowball german nosuchtokenizer", "snowball german fold nosuchprofile"] {
            #expect(throws: FoldSQLiteError.self, "\(tokenize)") { try db.execute("CREATE VIRTUAL TABLE bad USING fts5(x, tokenize = '\(tokenize)')") }
        }
        #expect(SnowballArguments.parse(["klingon", "fold"]) == .success(SnowballArguments(languages: [SnowballLanguage("english")!], stopWords: false, wrapped: "klingon", wrappedArguments: ["fold"])))
        guard case .failure(let error) = SnowballArguments.parse(["greek", "stopwords"]) else { Issue.record("greek stopwords parsed"); return }
        #expect(error.message.contains("no stop words for greek"))
    }

    @Test func invalidUTF8LongWordsAndHugeRowsAreIndexed() throws {
        let db = try Database()
        try db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'snowball english fold')")
        try db.execute("INSERT INTO t VALUES (CAST(X'52756E6E696E67FF73686F657320E282' AS TEXT))")   // Running\xFFshoes \xE2\x82
        #expect(try db.column("SELECT rowid FROM t WHERE t MATCH 'run shoe'") == ["1"])
        let long = String(repeating: "a", count: 9_996) + "ings"
        try Connection(handle: db.handle).prepare("INSERT INTO t VALUES (?1)").with { s in s.bind(1, long); _ = try s.step() }
        #expect(try db.column("SELECT rowid FROM t WHERE t MATCH ?1", [long]) == ["2"])
        let big = String(repeating: "Running shoes for Crème brûlée lovers ", count: 1_350_000)   // 50 MB
        try Connection(handle: db.handle).prepare("INSERT INTO t VALUES (?1)").with { s in s.bind(1, big); _ = try s.step() }
        #expect(try db.column("SELECT rowid FROM t WHERE t MATCH 'lover' ORDER BY rowid") == ["3"])
        #expect(try db.column("SELECT rowid FROM t WHERE t MATCH 'runs' ORDER BY rowid") == ["1", "3"])
        try db.execute("INSERT INTO t(t, rank) VALUES ('integrity-check', 1)")
    }
}

@Suite struct StemmedIndexTests {
    @Test func anIndexStemsRecordsItsStemmerAndRebuildsWhenItChanges() async throws {
        let db = try Database()
        try db.execute("CREATE TABLE docs (body TEXT)")
        try db.execute("INSERT INTO docs VALUES ('Running shoes for Crème brûlée lovers'), ('Run Shoe'), ('Die Häuser')")
        let english = try FTSIndex(connection: db.handle, table: "docs_fts", columns: ["body"], content: .external(table: "docs"),
                                   stemming: try .snowball("english"))
        #expect(try english.prepare())
        #expect(english.fingerprint == Folder().fingerprint + "+" + SnowballLanguage("english")!.fingerprint)
        #expect(SnowballLanguage("english")!.fingerprint.hasPrefix("snowball2.2.0-english-"))
        #expect(try english.recorded().fingerprint == english.fingerprint)
        #expect(try english.recorded().tokenize == "snowball english fold search")
        // The last word finds its stem and what it begins; matches marked in the original.
        #expect(try english.search("runs").map(\.columns) == [["[Run] Shoe"], ["[Running] shoes for Crème brûlée lovers"]] ||
                english.search("runs").map(\.columns) == [["[Running] shoes for Crème brûlée lovers"], ["[Run] Shoe"]])
        #expect(try english.search("runni").map(\.columns) == [["[Running] shoes for Crème brûlée lovers"]])
        #expect(try english.search("shoe run").count == 2)
        #expect(try english.search("lovers crem").map(\.columns) == [["Running shoes for [Crème] brûlée [lovers]"]])
        // The live-search source marks stemmed matches too.
        let live = FTSIndexSource(english)
        let results = try await live.search("shoes", limit: 10)
        #expect(results.matches.map { m in m.ranges.map { String(m.text[$0]) } }.sorted { $0.description < $1.description } == [["Shoe"], ["shoes"]])
        // Another stemmer: the index is stale and rebuilt.
        let german = try FTSIndex(connection: db.handle, table: "docs_fts", columns: ["body"], content: .external(table: "docs"),
                                  stemming: try .snowball("german", droppingStopWords: true))
        #expect(try german.needsRebuild())
        #expect(try german.prepare())
        #expect(try german.search("haus").map(\.columns) == [["Die [Häuser]"]])
        #expect(try german.recorded().fingerprint == Folder().fingerprint + "+" + SnowballLanguage("german")!.fingerprint + "-stopwords")
        // Reopened as it was built.
        let reopened = try #require(try FTSIndex.existing(connection: db.handle, table: "docs_fts", columns: ["body"], content: .external(table: "docs")))
        #expect(reopened.stemming == german.stemming && reopened.fingerprint == german.fingerprint)
        #expect(try reopened.search("hauser").count == 1)
        // No stemming: rebuilt as a plain fold index.
        let plain = try FTSIndex(connection: db.handle, table: "docs_fts", columns: ["body"], content: .external(table: "docs"))
        #expect(try plain.prepare())
        #expect(try plain.search("runs").isEmpty)
        #expect(try FTSIndex(connection: db.handle, table: "docs_fts", columns: ["body"], content: .external(table: "docs"),
                             stemming: try .snowball("german", droppingStopWords: true)).prepare())
        // An index whose wrapper no one registered: the error says what to register.
        try db.execute("UPDATE docs_fts_fold SET value = 'mystemmer english fold search' WHERE key = 'tokenize'")
        #expect {
            _ = try FTSIndex.existing(connection: db.handle, table: "docs_fts", columns: ["body"], content: .external(table: "docs"))
        } throws: { ($0 as? FoldSQLiteError)?.message.contains("register the 'mystemmer' tokenizer") == true }
    }

    @Test func badStemmingArgumentsAreErrors() {
        #expect(throws: StemmerError.unknownLanguage("klingon")) { try FTSStemming.snowball("klingon") }
        #expect(throws: StemmerError.noStopWords(SnowballLanguage("greek")!)) { try FTSStemming.snowball("greek", droppingStopWords: true) }
        #expect(FTSStemming.snowball(recorded: ["snowball", "german", "stopwords"], profile: .search)?.fingerprint == SnowballLanguage("german")!.fingerprint + "-stopwords")
    }
}

extension Statement {
    func with(_ body: (Statement) throws -> Void) rethrows { try body(self) }
}
