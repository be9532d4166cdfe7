import Fold
import Foundation
import PostgresSupport
import Testing

/// fold(text, profile) and fold_fingerprint(profile) in the server against the library.
@Suite struct FoldFunctionTests {
    /// Every vector of TestVectors/*.tsv: fold(input, profile) in the server is Folder.fold in
    /// this process (and the vector's expected output).
    @Test func equalsTheLibraryOnTheVectors() throws {
        let db = try TestCluster.freshDatabase()
        let vectors = try loadVectors()
        #expect(vectors.count > 900, "only \(vectors.count) vectors read")
        try db.execute("CREATE TEMPORARY TABLE vectors (id integer, profile text, input text)")
        try db.copyIn("COPY vectors FROM STDIN", rows: vectors.enumerated().map { [String($0.offset), $0.element.profile, $0.element.input] })
        let folded = try db.rows("SELECT id, fold(input, profile) FROM vectors ORDER BY id")
        #expect(folded.count == vectors.count)
        var folders: [String: Folder] = [:]
        var failures: [String] = []
        for row in folded {
            let v = vectors[Int(row[0]!)!]
            if folders[v.profile] == nil { folders[v.profile] = Folder(try #require(FoldProfile(named: v.profile))) }
            let library = folders[v.profile]!.fold(v.input)
            if row[1] != library || library != v.expected {
                failures.append("\(v.file):\(v.line) \(v.profile) \(v.input.debugDescription): server \(row[1]?.debugDescription ?? "NULL"), library \(library.debugDescription), vector \(v.expected.debugDescription)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(vectors.count):\n\(failures.prefix(20).joined(separator: "\n"))")
    }

    /// Random mixed strings, every profile: the server's fold is the library's.
    @Test func equalsTheLibraryOnRandomStrings() throws {
        let db = try TestCluster.freshDatabase()
        let texts = randomStrings(2_000, pieces: tokenPieces, maxPieces: 20)
        try db.execute("CREATE TEMPORARY TABLE texts (id integer, s text)")
        try db.copyIn("COPY texts FROM STDIN", rows: texts.enumerated().map { [String($0.offset), $0.element] })
        for profile in FoldProfile.presets + FoldProfile.tailoredPresets {
            let folder = Folder(profile)
            let rows = try db.rows("SELECT id, fold(s, $1) FROM texts ORDER BY id", [profile.name])
            let wrong = rows.filter { $0[1] != folder.fold(texts[Int($0[0]!)!]) }
            #expect(wrong.isEmpty, "\(profile.name): \(wrong.count) differ, first \(wrong.first.map { texts[Int($0[0]!)!].debugDescription } ?? "")")
        }
    }

    /// The fingerprints are the library's; fold_profiles lists every profile.
    @Test func fingerprintsAreTheLibrarys() throws {
        let db = try TestCluster.freshDatabase()
        #expect(try db.value("SELECT fold_fingerprint()") == (Folder(.search).fingerprint))
        for profile in FoldProfile.presets + FoldProfile.tailoredPresets {
            #expect(try db.value("SELECT fold_fingerprint($1)", [profile.name]) == (Folder(profile).fingerprint))
            #expect(try db.value("SELECT fold_fingerprint(upper($1))", [profile.name]) == (Folder(profile).fingerprint))
        }
        let listed = try db.rows("SELECT profile, fingerprint FROM fold_profiles()")
        #expect(listed.map { $0[0]! } == (FoldProfile.presets + FoldProfile.tailoredPresets).map(\.name))
    }

    /// As documented: NULL in, NULL out (STRICT, also for a NULL profile); empty text folds to
    /// empty text; an unknown profile is SQLSTATE 22023 naming the valid ones.
    @Test func nullEmptyAndBadProfiles() throws {
        let db = try TestCluster.freshDatabase()
        #expect(try db.rows("SELECT fold(NULL) IS NULL, fold('x', NULL) IS NULL, fold(''), fold('', 'ascii'), fold_fingerprint(NULL) IS NULL")
                == [["t", "t", "", "", "t"]])
        for statement in ["SELECT fold('x', 'nope')", "SELECT fold_fingerprint('search-xx')", "SELECT fold('x', '')",
                          "CREATE TEXT SEARCH DICTIONARY d (TEMPLATE = fold, PROFILE = 'nope')",
                          "SELECT fold_create_configuration('c', 'nope')"] {
            let failure = error { try db.execute(statement) }
            #expect(failure?.sqlState == "22023", "\(statement): \(String(describing: failure))")
            #expect(failure?.message.contains("the valid ones are search, ascii, nfc, nfd, nfkc, nfkd, nfkc-casefold, search-tr") == true,
                    "\(statement): \(String(describing: failure))")
        }
        let option = error { try db.execute("CREATE TEXT SEARCH DICTIONARY d (TEMPLATE = fold, LANGUAGE = 'de')") }
        #expect(option?.sqlState == "22023" && option?.message.contains("the valid ones are profile, filter and stopwords") == true, "\(String(describing: option))")
        // The session goes on.
        #expect(try db.value("SELECT fold('Ærø', 'ascii')") == "aero")
    }

    /// IMMUTABLE STRICT PARALLEL SAFE, so it serves expression indexes and generated columns.
    @Test func declaredForIndexes() throws {
        let db = try TestCluster.freshDatabase()
        #expect(try db.rows("SELECT provolatile, proisstrict, proparallel FROM pg_proc WHERE oid = 'fold(text,text)'::regprocedure")
                == [["i", "t", "s"]])
        #expect(try db.rows("SELECT provolatile, proisstrict, proparallel FROM pg_proc WHERE oid = 'fold_tsquery(text,boolean,regconfig)'::regprocedure")
                == [["i", "t", "s"]])
        try db.execute("CREATE TABLE people (name text, key text GENERATED ALWAYS AS (fold(name)) STORED)")
        try db.execute("INSERT INTO people (name) VALUES ('Müller'), ('Łódź'), ('Ærø')")
        #expect(try db.rows("SELECT name FROM people WHERE key = fold('MULLER')") == [["Müller"]])
    }

    /// Invalid UTF-8: a UTF8 database never holds it (the server rejects it, 22021, before fold
    /// sees it); in a SQL_ASCII database fold, the parser and fold_tsquery raise 22021 with the
    /// offset of the first bad byte. Other encodings refuse the extension.
    @Test func invalidInputAndEncodings() throws {
        let utf8 = try TestCluster.freshDatabase()
        #expect(error { try utf8.execute("SELECT fold(E'ab\\xffc')") }?.sqlState == "22021")
        let ascii = try TestCluster.freshDatabase(encoding: "SQL_ASCII")
        #expect(try ascii.value("SELECT fold('Crème')") == "creme")
        for statement in ["SELECT fold(E'ab\\xffc')", "SELECT to_tsvector('fold', E'ab \\xff c')", "SELECT fold_tsquery(E'ab \\xff')",
                          "SELECT fold(E'ab\\xc3')", "SELECT fold(E'\\xed\\xa0\\x80')"] {
            let failure = error { try ascii.execute(statement) }
            #expect(failure?.sqlState == "22021" && failure?.message.contains("invalid UTF-8 at byte offset") == true,
                    "\(statement): \(String(describing: failure))")
        }
        #expect(error { try ascii.execute("SELECT fold(E'ab\\xffc')") }?.message == "fold: invalid UTF-8 at byte offset 2: 0xff 0x63")
        #expect(try ascii.value("SELECT 1") == "1")
        let cluster = try TestCluster.shared()
        try cluster.connect().execute("CREATE DATABASE latin1_\(getpid()) ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
        let latin1 = try cluster.connect(database: "latin1_\(getpid())")
        let refused = error { try latin1.execute("CREATE EXTENSION fold") }
        #expect(refused?.sqlState == "0A000" && refused?.message.contains("fold needs a UTF8 database") == true, "\(String(describing: refused))")
    }
}

/// Long values: a 50 MB value folds to the library's fold; query cancel and statement_timeout
/// stop a long fold and a long parse within a chunk; the backend goes on. Serialized: the
/// timings must not share the cores with the other suites' work more than they must.
@Suite(.serialized) struct LongValueTests {
    static let line = "Crème brûlée à Łódź, Straße ½ ΆΡΤΟΣ 東京 ｶﾞｯｺｳ Müller "

    @Test func fiftyMegabytesFoldToTheLibrarysFold() throws {
        let db = try TestCluster.freshDatabase()
        let count = 50_000_000 / Self.line.utf8.count + 1
        let text = String(repeating: Self.line, count: count)
        #expect(text.utf8.count >= 50_000_000)
        for profile in ["search", "search-de"] {
            let folded = try db.value("SELECT fold(repeat($1, $2), $3)", [Self.line, String(count), profile])
            let library = Folder(try #require(FoldProfile(named: profile))).fold(text)
            #expect(folded?.utf8.count == library.utf8.count && folded == library, "\(profile): \(folded?.utf8.count ?? -1) bytes, library \(library.utf8.count)")
        }
        // One combining sequence of 18 MB has nowhere to split: folded whole, the same as the library.
        let marks = try db.value("SELECT fold('a' || repeat(E'\\u0301', 9000000) || 'B')")
        #expect(marks == "ab")
        // The parser over 50 MB (PostgreSQL's positions stop at 16383; these words repeat).
        let lexemes = try db.value("SELECT array_to_string(tsvector_to_array(to_tsvector('fold', repeat($1, $2))), ' ')", [Self.line, String(count)])
        let words = Set(try expectedUnits(Self.line, folder: Folder(.search)).flatMap(\.words))
        #expect(Set((lexemes ?? "").split(separator: " ").map(String.init)) == words, "\(lexemes ?? "NULL")")
    }

    @Test func statementTimeoutStopsLongFolds() throws {
        let db = try TestCluster.freshDatabase()
        let count = String(50_000_000 / Self.line.utf8.count)
        // search-de takes the general path: seconds for 50 MB, so the timeout comes first.
        let full = try seconds { _ = try db.value("SELECT length(fold(repeat($1, $2::int), 'search-de'))", [Self.line, count]) }
        try db.execute("SET statement_timeout = '200ms'")
        for statement in ["SELECT length(fold(repeat($1, $2::int), 'search-de'))",
                          "SELECT length(to_tsvector('fold', repeat($1, $2::int)))",
                          "SELECT length(ts_headline('fold', repeat($1, $2::int), 'creme'::tsquery))"] {
            var failure: PostgresError? = nil
            let elapsed = seconds { failure = error { try db.execute(statement, [Self.line, count]) } }
            #expect(failure?.sqlState == "57014", "\(statement): \(String(describing: failure))")
            // The timeout, a chunk (1 MB), and repeat()'s 50 MB before the first chunk.
            #expect(elapsed < 1.5, "\(statement): stopped after \(elapsed) s (the whole fold takes \(full) s)")
        }
        try db.execute("RESET statement_timeout")
        #expect(try db.value("SELECT fold('Ça va')") == "ca va")
    }

    @Test func queryCancelStopsALongFold() throws {
        let db = try TestCluster.freshDatabase()
        let other = try TestCluster.shared().connect()
        let pid = String(db.backendPID)
        let count = String(50_000_000 / Self.line.utf8.count)
        nonisolated(unsafe) var cancelled = false
        let canceller = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            cancelled = (try? other.value("SELECT pg_cancel_backend($1::int)", [pid])) == "t"
        }
        var failure: PostgresError? = nil
        canceller.start()
        let elapsed = seconds { failure = error { try db.execute("SELECT length(fold(repeat($1, $2::int), 'search-de'))", [Self.line, count]) } }
        #expect(cancelled)
        #expect(failure?.sqlState == "57014", "\(String(describing: failure))")
        #expect(elapsed < 1.6, "cancelled after \(elapsed) s")
        #expect(try db.value("SELECT fold('Ça va')") == "ca va")
    }
}
