import Fold
import Foundation
import PostgresSupport
import Testing

/// The sample of the README's table: what each configuration finds, next to unaccent.
let stemmingSample = "Running shoes for Crème brûlée lovers"

/// Creates unaccent and, for each language, the configuration `unaccent_LANGUAGE` that unaccent's
/// users write: `COPY = LANGUAGE`, then `unaccent, LANGUAGE_stem` for the words that are not ASCII.
func createUnaccentConfigurations(_ db: Connection, _ languages: [String]) throws {
    try db.execute("CREATE EXTENSION IF NOT EXISTS unaccent")
    for language in languages {
        try db.execute("""
            CREATE TEXT SEARCH CONFIGURATION unaccent_\(language) (COPY = \(language));
            ALTER TEXT SEARCH CONFIGURATION unaccent_\(language) ALTER MAPPING FOR hword, hword_part, word WITH unaccent, \(language)_stem;
            """)
    }
}

/// Fold, then stem: filtering Fold dictionaries hand their word to a Snowball stemmer, stop words
/// folded with the same profile are dropped, and fold_create_configuration builds it in one call.
@Suite struct StemmingTests {
    /// The issue's example: `fold_english` (and a mapping written by hand with
    /// fold_search_filter) stems and drops stop words exactly as `unaccent, english_stem`; the
    /// `fold` configuration, and a mapping that puts english_stem after the non-filtering
    /// fold_search, answer unstemmed, and the latter says so with a WARNING.
    @Test func foldThenStemAsUnaccentDoes() throws {
        let db = try TestCluster.freshDatabase()
        try createUnaccentConfigurations(db, ["english"])
        try db.execute("""
            CREATE TEXT SEARCH CONFIGURATION by_hand (COPY = fold);
            ALTER TEXT SEARCH CONFIGURATION by_hand ALTER MAPPING FOR word WITH fold_search_filter, english_stem;
            """)
        let expected = "'brule':5 'creme':4 'lover':6 'run':1 'shoe':2"
        for config in ["fold_english", "by_hand", "unaccent_english"] {
            #expect(try db.value("SELECT to_tsvector($1::regconfig, $2)::text", [config, stemmingSample]) == expected, "\(config)")
        }
        // Unchanged: the fold configuration neither stems nor drops words.
        #expect(try db.value("SELECT to_tsvector('fold', $1)::text", [stemmingSample])
                == "'brulee':5 'creme':4 'for':3 'lovers':6 'running':1 'shoes':2")
        // The silent trap of the issue is no longer silent.
        try db.execute("CREATE TEXT SEARCH CONFIGURATION trap (COPY = fold)")
        try db.execute("ALTER TEXT SEARCH CONFIGURATION trap ALTER MAPPING FOR word WITH fold_search, english_stem")
        #expect(db.notices.contains { $0.contains("dictionary fold_search answers every word, so english_stem after it is never asked") },
                "\(db.notices)")
        #expect(try db.value("SELECT to_tsvector('trap', 'Running shoes')::text") == "'running':1 'shoes':2")
        let before = db.notices.count
        try db.execute("ALTER TEXT SEARCH CONFIGURATION trap ALTER MAPPING FOR word WITH fold_search_filter, english_stem")
        #expect(!db.notices.dropFirst(before).contains { $0.contains("never asked") }, "\(db.notices)")
        // A filtering dictionary alone answers nothing, as unaccent alone does.
        try db.execute("ALTER TEXT SEARCH CONFIGURATION trap ALTER MAPPING FOR word WITH fold_search_filter")
        #expect(try db.value("SELECT to_tsvector('trap', 'Running shoes')::text") == "")
        // A token of several words (½) is answered by the fold dictionary (PostgreSQL hands only one word on).
        #expect(try db.value("SELECT to_tsvector('fold_english', '½ cups, ﬁnancial')::text") == "'1':1 '2':2 'cup':3 'financi':4")
        // Queries stem the same way, and find the row.
        #expect(try db.value("SELECT fold_tsquery('RUNNING Shoe', false, 'fold_english')::text") == "'run' & 'shoe'")
        #expect(try db.value("SELECT to_tsvector('fold_english', $1) @@ fold_tsquery('lover creme', false, 'fold_english')", [stemmingSample]) == "t")
        // Headlines mark the original words a stemmed match came from.
        #expect(try db.value("SELECT ts_headline('fold_english', $1, fold_tsquery('run lover', false, 'fold_english'), 'HighlightAll=true')",
                             [stemmingSample]) == "<b>Running</b> shoes for Crème brûlée <b>lovers</b>")
        // As the README says: the last word's prefix is the prefix of its stem, so a prefix longer
        // than the stem finds nothing there; the fold configuration finds it.
        #expect(try db.value("SELECT to_tsvector('fold_english', 'running') @@ fold_tsquery('runni', true, 'fold_english')") == "f")
        #expect(try db.value("SELECT to_tsvector('fold', 'running') @@ fold_tsquery('runni')") == "t")
        #expect(try db.value("SELECT to_tsvector('fold_english', 'running') @@ fold_tsquery('run', true, 'fold_english')") == "t")
        // ts_lexize shows the filtering dictionary's word; the configuration's profiles are the fold's.
        #expect(try db.value("SELECT ts_lexize('fold_search_filter', 'Crème')::text") == "{creme}")
        #expect(try db.value("SELECT fold_config_profiles('fold_english')::text") == "{search,snowball:english}")
    }

    /// Postgres/README.md's table "What each configuration finds": each line of the small
    /// multilingual sample under fold, fold_LANGUAGE and `unaccent, LANGUAGE_stem` (the
    /// language's own parser), exactly as the README shows them.
    @Test func theReadmeSample() throws {
        let db = try TestCluster.freshDatabase()
        try createUnaccentConfigurations(db, ["english", "german", "french"])
        let table: [(text: String, language: String, fold: String, stemmed: String, unaccent: String)] = [
            ("Running shoes for Crème brûlée lovers", "english",
             "'brulee':5 'creme':4 'for':3 'lovers':6 'running':1 'shoes':2",
             "'brule':5 'creme':4 'lover':6 'run':1 'shoe':2",
             "'brule':5 'creme':4 'lover':6 'run':1 'shoe':2"),
            ("Die Häuser für Müller, fur Straßen", "german",
             "'die':1 'fur':3,5 'hauser':2 'muller':4 'strassen':6",
             "'haus':2 'mull':4 'strass':6",
             "'fur':3,5 'haus':2 'mull':4 'strass':6"),
            ("Où sont les crèmes brûlées à l'université ? ou", "french",
             "'a':6 'brulees':5 'cremes':4 'l':7 'les':3 'ou':1,9 'sont':2 'universite':8",
             "'brule':5 'crem':4 'le':3 'universit':8",
             "'a':6 'brule':5 'crem':4 'le':3 'universit':8"),
            ("Łódź, ΕΛΛΗΝΙΚΑ and 東京タワー", "english",
             "'and':3 'lodz':1 'ελληνικα':2 'た':6 'わ':7 'ー':8 '京':5 '東':4",
             "'lodz':1 'ελληνικα':2 'た':6 'わ':7 'ー':8 '京':5 '東':4",
             "'lodz':1 'ελληνικα':2 '東京タワー':4"),
        ]
        for row in table {
            #expect(try db.rows("SELECT to_tsvector('fold', $1)::text, to_tsvector($2::regconfig, $1)::text, to_tsvector($3::regconfig, $1)::text",
                                [row.text, "fold_\(row.language)", "unaccent_\(row.language)"])
                    == [[row.fold, row.stemmed, row.unaccent]], "\(row.text)")
        }
    }

    /// Every ready-made configuration folds, drops its language's stop words and stems.
    @Test(arguments: [
        ("fold_english", "The Crème brûlée lovers were running", "'brule':3 'creme':2 'lover':4 'run':6"),
        ("fold_german", "Die Häuser für Bücher und Straßen", "'buch':4 'haus':2 'strass':6"),
        // PostgreSQL's french.stop has le and la but not les.
        ("fold_french", "Où sont les étudiantes à l'université", "'etudi':4 'le':3 'universit':7"),
        ("fold_spanish", "Los niños están en la canción", "'cancion':6 'nin':2"),
        ("fold_italian", "Le città più belle", "'bell':4 'citt':2"),
        // são is a stop word, so São of São Paulo is dropped too, typed as it may be.
        ("fold_portuguese", "As canções são de São Paulo", "'canco':2 'paul':6"),
        ("fold_dutch", "De café's zijn in België", "'belgie':6 'caf':2 's':3"),
    ])
    func readyMadeConfigurations(config: String, text: String, expected: String) throws {
        let db = try TestCluster.freshDatabase()
        #expect(try db.value("SELECT to_tsvector($1::regconfig, $2)::text", [config, text]) == expected)
    }

    /// A stop word typed with or without its accents is dropped the same way (für and fur, où
    /// and ou), also in capitals and with combining accents, by the ready-made configurations and
    /// by one fold_create_configuration makes for a tailored profile; `unaccent, german_stem`
    /// keeps `fur`, because german.stop holds only `für`.
    @Test(arguments: [
        ("fold_german", ["für", "fur", "FÜR", "fu\u{308}r", "über", "uber", "hätte", "hatte", "daß", "dass", "würde", "wurde"], "Häuser", "'haus':2"),
        ("fold_french", ["où", "ou", "OÙ", "à", "a", "été", "ete", "étiez", "etiez", "même", "meme"], "étudiantes", "'etudi':2"),
        ("fold_english", ["the", "THE", "ours", "ourselves"], "shoes", "'shoe':2"),
        ("my_german_de", ["für", "fur", "über", "uber"], "Häuser", "'haus':2"),
    ])
    func stopWordsFoldToo(config: String, words: [String], next: String, expected: String) throws {
        let db = try TestCluster.freshDatabase()
        _ = try db.value("SELECT fold_create_configuration('my_german_de', 'search-de', 'german')")
        for word in words {
            #expect(try db.value("SELECT to_tsvector($1::regconfig, $2)::text", [config, "\(word) \(next)"]) == expected,
                    "\(config): \(word)")
            #expect(try db.value("SELECT numnode(fold_tsquery($1, false, $2::regconfig))", [word, config]) == "0", "\(config): \(word)")
        }
        if config == "fold_german" {
            try createUnaccentConfigurations(db, ["german"])
            #expect(try db.value("SELECT to_tsvector('unaccent_german', 'für fur Häuser')::text") == "'fur':1,2 'haus':3")
        }
    }

    /// The template's options: STOPWORDS folds the file with the dictionary's own profile (ascii
    /// here) and works without FILTER; a missing stop file and an unknown option are errors.
    @Test func dictionaryOptions() throws {
        let db = try TestCluster.freshDatabase()
        try db.execute("CREATE TEXT SEARCH DICTIONARY ascii_german (TEMPLATE = fold, PROFILE = 'ascii', STOPWORDS = 'german')")
        #expect(try db.value("SELECT ts_lexize('ascii_german', 'FÜR')::text") == "{}")
        #expect(try db.value("SELECT ts_lexize('ascii_german', 'Ærø')::text") == "{aero}")
        try db.execute("CREATE TEXT SEARCH CONFIGURATION ascii_german (COPY = fold_ascii)")
        try db.execute("ALTER TEXT SEARCH CONFIGURATION ascii_german ALTER MAPPING FOR word WITH ascii_german")
        #expect(try db.value("SELECT to_tsvector('ascii_german', 'für Ærø und Smørrebrød')::text") == "'aero':2 'smorrebrod':4")
        let missing = error { try db.execute("CREATE TEXT SEARCH DICTIONARY missing (TEMPLATE = fold, STOPWORDS = 'klingon')") }
        #expect(missing?.sqlState == "F0000" && missing?.message.contains("klingon.stop") == true, "\(String(describing: missing))")
        let unknown = error { try db.execute("CREATE TEXT SEARCH DICTIONARY odd (TEMPLATE = fold, STEM = 'german')") }
        #expect(unknown?.sqlState == "22023" && unknown?.message.contains("profile, filter and stopwords") == true, "\(String(describing: unknown))")
        let notBoolean = error { try db.execute("CREATE TEXT SEARCH DICTIONARY odd (TEMPLATE = fold, FILTER = 'maybe')") }
        #expect(notBoolean?.sqlState == "42601" && notBoolean?.message.contains("requires a Boolean value") == true, "\(String(describing: notBoolean))")
    }

    /// fold_create_configuration(name, profile, language): any case, a language without a stop
    /// file (greek), a tailored profile; the mapping is a filtering Fold dictionary with the
    /// language's stop words then pg_catalog.LANGUAGE_stem; an unknown language is 22023 naming the
    /// valid ones; an index on such a configuration is recorded with the fold's fingerprint and
    /// the stemmer's (PostgreSQL's major version), is not stale, and is listed for a REINDEX when
    /// it was built by another major version's Snowball (simulated, as UpgradeTests do).
    @Test func createConfigurationWithALanguage() throws {
        let db = try TestCluster.freshDatabase()
        #expect(try db.value("SELECT fold_create_configuration('de_stem', 'search-de', 'German')::text") == "de_stem")
        #expect(try db.rows("""
            SELECT m.mapseqno::text, m.mapdict::regdictionary::text, d.dictinitoption
              FROM pg_ts_config_map m JOIN pg_ts_dict d ON d.oid = m.mapdict
             WHERE m.mapcfg = 'de_stem'::regconfig ORDER BY m.mapseqno
            """) == [["1", "fold_search_de_german", "profile = 'search-de', filter = 'true', stopwords = 'german'"],
                     ["2", "german_stem", "language = 'german', stopwords = 'german'"]])
        #expect(try db.value("SELECT to_tsvector('de_stem', 'Die Häuser für Mueller')::text") == "'haus':2 'mull':4")
        #expect(try db.value("SELECT fold_create_configuration('el_stem', 'search', 'greek')::text") == "el_stem")
        #expect(try db.value("SELECT to_tsvector('el_stem', 'Οι ΆΝΘΡΩΠΟΙ')::text") == "'ανθρωπ':2 'οι':1")
        // Without a language: as before, a plain fold configuration.
        #expect(try db.value("SELECT fold_create_configuration('plain_de', 'search-de')::text") == "plain_de")
        #expect(try db.value("SELECT to_tsvector('plain_de', 'Die Häuser')::text") == "'die':1 'hauser':2")
        let unknown = error { try db.execute("SELECT fold_create_configuration('x', 'search', 'klingon')") }
        #expect(unknown?.sqlState == "22023"
                && unknown?.message.hasPrefix("fold: unknown Snowball language \"klingon\"; the valid ones are arabic, armenian, basque") == true
                && unknown?.message.contains("english, finnish, french, german") == true, "\(String(describing: unknown))")
        #expect(error { try db.execute("SELECT fold_create_configuration('y', 'nope', 'german')") }?.sqlState == "22023")
        #expect(try db.value("SELECT count(*) FROM pg_ts_config WHERE cfgname IN ('x', 'y')") == "0")
        try db.execute("CREATE TABLE t (body text); CREATE INDEX t_fts ON t USING gin (to_tsvector('de_stem', body))")
        let major = try db.value("SELECT current_setting('server_version_num')::int / 10000")!
        let fold = Folder(.search.tailored(for: .german)).fingerprint
        #expect(try db.rows("SELECT kind, object, fingerprints::text FROM fold_builds")
                == [["index", "public.t_fts", "{\(fold),snowball-german-pg\(major)}"]])
        #expect(try db.rows("SELECT object FROM fold_stale_indexes()").isEmpty)
        try db.execute("UPDATE fold_builds SET fingerprints = '{\(fold),snowball-german-pg14}'")
        #expect(try db.rows("SELECT object, running::text, fix FROM fold_stale_indexes()")
                == [["public.t_fts", "{\(fold),snowball-german-pg\(major)}", "REINDEX INDEX CONCURRENTLY public.t_fts;"]])
        try db.execute("REINDEX INDEX t_fts")
        #expect(try db.rows("SELECT object FROM fold_stale_indexes()").isEmpty)
    }

    /// Bad input stays linear and loses nothing PostgreSQL can hold: a word of 10,000 letters
    /// (PostgreSQL drops a token of 2 KB or more before any dictionary, with a NOTICE, as it does
    /// for unaccent) between ordinary words, which are kept; a word of 995 bytes is folded and
    /// stemmed, and one of 1,005 is folded but not stemmed (PostgreSQL's snowball dictionary stems
    /// no word over 1,000 bytes; libstemmer has no such limit); a row of 50 MB gives every lexeme of its text, the last word too, in time
    /// proportional to its length; invalid UTF-8 in a SQL_ASCII database is 22021 at its offset.
    @Test func badInput() throws {
        let db = try TestCluster.freshDatabase()
        let long = String(repeating: "ä", count: 10_000)
        #expect(try db.value("SELECT to_tsvector('fold_german', $1)::text", ["Häuser \(long) Bücher"]) == "'buch':2 'haus':1")
        #expect(db.notices.contains { $0.contains("word is too long to be indexed") })
        for (letters, stem) in [(990, "ung"), (1_000, "ungen")] {
            #expect(try db.value("SELECT to_tsvector('fold_german', $1)::text", ["Häuser \(String(repeating: "ä", count: letters))ungen"])
                    == "'\(String(repeating: "a", count: letters))\(stem)':2 'haus':1", "\(letters)")
        }
        // 50 MB: the sample and German words repeated, then one word found nowhere else.
        let line = "\(stemmingSample) à Łódź, die Häuser für Bücher ½ 東京 "
        var smallCount: String?
        let small = try seconds {
            smallCount = try db.value("SELECT length(to_tsvector('fold_english', repeat($1, $2::int) || 'Zebrastreifen')::text) > 0",
                                      [line, String(5_000_000 / line.utf8.count)])
        }
        #expect(smallCount == "t")
        var lexemes: [[String?]] = []
        let large = try seconds {
            lexemes = try db.rows("SELECT lexeme FROM unnest(to_tsvector('fold_english', repeat($1, $2::int) || 'Zebrastreifen')) ORDER BY 1",
                                  [line, String(50_000_000 / line.utf8.count)])
        }
        #expect(lexemes.map { $0[0]! } == ["1", "2", "bucher", "brule", "creme", "die", "fur", "hauser", "lodz", "lover", "run", "shoe",
                                           "zebrastreifen", "京", "東"].sorted(), "\(lexemes)")
        // Ten times the text, about ten times the time (generous: the machine is shared).
        #expect(large < max(small, 0.2) * 30, "5 MB: \(small) s, 50 MB: \(large) s")
        let ascii = try TestCluster.freshDatabase(encoding: "SQL_ASCII")
        for statement in ["SELECT to_tsvector('fold_german', E'Häuser \\xff fur')", "SELECT ts_lexize('fold_search_german', E'f\\xc3r')",
                          "SELECT fold_tsquery(E'Häuser \\xff', true, 'fold_german')"] {
            let failure = error { try ascii.execute(statement) }
            #expect(failure?.sqlState == "22021" && failure?.message.contains("invalid UTF-8 at byte offset") == true,
                    "\(statement): \(String(describing: failure))")
        }
        #expect(try ascii.value("SELECT to_tsvector('fold_german', 'Häuser für Bücher')::text") == "'buch':3 'haus':1")
    }
}

/// The same-stem check: for German and English, each word of Fixtures/stem-words-LANG.txt
/// (hand-picked words, PostgreSQL's stop list, a sample of Debian's word list) is cut and folded
/// by Fold (search profile) and stemmed by PostgreSQL's LANGUAGE_stem (its Snowball, stop words
/// not removed); Fixtures/stems-LANG.tsv holds `word<TAB>folded stem` for every word that Fold
/// cuts as one word. The test checks PostgreSQL against the file, then Debian's libstemmer
/// (libstemmer0d, loaded with dlopen) on the library's fold against the file. FOLD_PG_WRITE_STEMS=1
/// writes the files from PostgreSQL instead.
@Suite struct SameStemTests {
    static let fixtures = packageRoot + "/Tests/FoldPostgresTests/Fixtures"

    @Test(arguments: ["german", "english"])
    func sameStemFixtures(language: String) throws {
        let db = try TestCluster.freshDatabase()
        try db.execute("""
            CREATE TEXT SEARCH DICTIONARY stem_only (TEMPLATE = snowball, LANGUAGE = \(language));
            CREATE TEXT SEARCH CONFIGURATION fold_stem_only (PARSER = fold_search);
            ALTER TEXT SEARCH CONFIGURATION fold_stem_only ADD MAPPING FOR word WITH fold_search_filter, stem_only;
            """)
        let folder = Folder(.search)
        let tsv = Self.fixtures + "/stems-\(language).tsv"
        var rows: [(word: String, stem: String)]
        let writing = ProcessInfo.processInfo.environment["FOLD_PG_WRITE_STEMS"] == "1"
        if writing {
            let list = try String(contentsOfFile: Self.fixtures + "/stem-words-\(language).txt", encoding: .utf8)
            rows = list.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
                .filter { folder.tokens(in: $0).reduce(0) { n, _ in n + 1 } == 1 }.map { ($0, "") }
        } else {
            rows = try String(contentsOfFile: tsv, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
                let fields = $0.split(separator: "\t", omittingEmptySubsequences: false)
                return (String(fields[0]), fields.count > 1 ? String(fields[1]) : "")
            }
            #expect(rows.count > 1_500)
        }
        try db.execute("CREATE TEMPORARY TABLE words (id integer, word text)")
        try db.copyIn("COPY words FROM STDIN", rows: rows.enumerated().map { [String($0.offset), $0.element.word] })
        var stems = [String](repeating: "", count: rows.count)
        for row in try db.rows("""
            SELECT w.id, string_agg(l.lexeme, ' ') FROM words w, unnest(to_tsvector('fold_stem_only', w.word)) l GROUP BY w.id
            """) {
            stems[Int(row[0]!)!] = row[1]!
        }
        if writing {
            let version = try db.value("SELECT version()") ?? ""
            var text = "# word<TAB>folded stem: Fold's search fold of the word (one word), then PostgreSQL's \(language)_stem "
                + "(Snowball; stop words not removed). Written by SameStemTests with FOLD_PG_WRITE_STEMS=1 from "
                + "stem-words-\(language).txt on \(version.split(separator: ",").first ?? "")\n"
            for (row, stem) in zip(rows, stems) { text += "\(row.word)\t\(stem)\n" }
            try text.write(toFile: tsv, atomically: true, encoding: .utf8)
            return
        }
        let differences = zip(rows, stems).filter { $0.0.stem != $0.1 }.map { "\($0.0.word): file \($0.0.stem), PostgreSQL \($0.1)" }
        #expect(differences.isEmpty, "\(differences.count) differences:\n\(differences.prefix(20).joined(separator: "\n"))")

        // Debian's libstemmer (Snowball 2.2.0) on the library's fold gives the same stems.
        let stemmer = try LibStemmer(language: language)
        let libstemmer = rows.compactMap { row -> String? in
            let folded = folder.tokens(in: row.word).map(\.folded)
            let stem = folded.count == 1 ? stemmer.stem(folded[0]) : "(\(folded.count) words)"
            return stem == row.stem ? nil : "\(row.word): file \(row.stem), libstemmer \(stem)"
        }
        #expect(libstemmer.isEmpty, "\(libstemmer.count) differences:\n\(libstemmer.prefix(20).joined(separator: "\n"))")
    }
}

/// Debian's libstemmer (libstemmer0d), loaded at run time so the package does not link it.
final class LibStemmer {
    typealias New = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>?) -> OpaquePointer?
    typealias Stem = @convention(c) (OpaquePointer, UnsafePointer<UInt8>, Int32) -> UnsafePointer<UInt8>?
    typealias Length = @convention(c) (OpaquePointer) -> Int32
    typealias Delete = @convention(c) (OpaquePointer) -> Void

    private let stemmer: OpaquePointer
    private let stemFunction: Stem
    private let lengthFunction: Length
    private let deleteFunction: Delete

    init(language: String) throws {
        guard let library = dlopen("libstemmer.so.0d", RTLD_NOW) else {
            throw ClusterError("libstemmer.so.0d is missing (Debian: apt-get install libstemmer0d; Scripts/ensure-deps.sh does)")
        }
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let address = dlsym(library, name) else { throw ClusterError("libstemmer has no \(name)") }
            return unsafeBitCast(address, to: type)
        }
        let new = try symbol("sb_stemmer_new", as: New.self)
        stemFunction = try symbol("sb_stemmer_stem", as: Stem.self)
        lengthFunction = try symbol("sb_stemmer_length", as: Length.self)
        deleteFunction = try symbol("sb_stemmer_delete", as: Delete.self)
        guard let stemmer = new(language, "UTF_8") else { throw ClusterError("libstemmer has no \(language) stemmer") }
        self.stemmer = stemmer
    }

    func stem(_ word: String) -> String {
        let bytes = Array(word.utf8)
        guard let result = stemFunction(stemmer, bytes, Int32(bytes.count)) else { return "(out of memory)" }
        return String(decoding: UnsafeBufferPointer(start: result, count: Int(lengthFunction(stemmer))), as: UTF8.self)
    }

    deinit { deleteFunction(stemmer) }
}
