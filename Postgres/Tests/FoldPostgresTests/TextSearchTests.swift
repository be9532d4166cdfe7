import Fold
import Foundation
import PostgresSupport
import Testing

/// The inputs of the library's token tests (Tests/FoldTests/TokenTests.swift: the boundaries
/// table, expansions, removed marks) and of the README's Boundaries table.
let tokenTestInputs: [String] = [
    "l'été", "L\u{2019}Été", "don't", "3.14 1,000 1.000.000,5", "12'345", "e-mail", "U.S.A.", "C++ C#", "foo_bar __ _x",
    "jean@example.com @ @@", "hello, world!", "ﬁnance", "½", "Straße", "東京タワー", "ひらがなabc", "한국어 사전",
    "한국어abc 사전1", "Ελληνικά Русский", "ภาษาไทย", "… — « » ¿?", "", "Straße e\u{301}t\u{301}e\u{301} \u{FDFA}",
    "col·lecció", "a:b", "\u{AC00}\u{301} \u{AC00}\u{AC01}", "a_\u{301} b", "ｶﾞｯｺｳ", "L'Été à Paris", "a½b", "1½ cup",
    "Crème brûlée à Łódź", "Müller Mueller", "ISPARTA İstanbul", "Ærø © «x»", "AT&T crème-brûlée", "東京 タワー",
    "ok \u{E20}\u{E32}\u{E29}\u{E32}", "a\u{200D}b", "Tiếng Việt", "שָׁלוֹם", "مُحَمَّد", "क्षि", "น้ำ",
]

/// The text search parser and dictionary in the server against the library's tokens.
@Suite struct ParserTests {
    /// For each configuration (fold, fold_ascii, and one made for search-de): ts_parse's word
    /// tokens are the library's units (the byte ranges its tokens come from, tokens whose ranges
    /// overlap together), its tokens cover the text, and to_tsvector gives each of the library's
    /// words at its position (token index + 1). On the token tests' inputs and 2,000 random
    /// strings.
    @Test func wordsAndRangesAreTheLibrarysTokens() throws {
        let db = try TestCluster.freshDatabase()
        #expect(try db.value("SELECT fold_create_configuration('fold_de', 'search-de')::text") == "fold_de")
        let inputs = tokenTestInputs + randomStrings(2_000, pieces: tokenPieces, maxPieces: 16)
        try db.execute("CREATE TEMPORARY TABLE inputs (id integer, s text)")
        try db.copyIn("COPY inputs FROM STDIN", rows: inputs.enumerated().map { [String($0.offset), $0.element] })
        for (config, parser, profile) in [("fold", "fold_search", FoldProfile.search), ("fold_ascii", "fold_ascii", .ascii),
                                          ("fold_de", "fold_search_de", .search.tailored(for: .german))] {
            let folder = Folder(profile)
            let tokens = try db.rows("""
                SELECT i.id, p.tokid, p.token FROM inputs i, ts_parse($1, i.s) WITH ORDINALITY AS p(tokid, token, n) ORDER BY i.id, p.n
                """, [parser])
            let lexemes = try db.rows("""
                SELECT i.id, l.lexeme, l.positions::text FROM inputs i, unnest(to_tsvector($1::regconfig, i.s)) l
                """, [config])
            var parsed = [[(type: Int, token: String)]](repeating: [], count: inputs.count)
            for row in tokens { parsed[Int(row[0]!)!].append((Int(row[1]!)!, row[2]!)) }
            var vectors = [[String: [Int]]](repeating: [:], count: inputs.count)
            for row in lexemes {
                vectors[Int(row[0]!)!][row[1]!] = row[2]!.dropFirst().dropLast().split(separator: ",").map { Int($0)! }
            }
            var failures: [String] = []
            for (id, input) in inputs.enumerated() {
                let expected = try expectedUnits(input, folder: folder)
                var offset = 0
                var ranges: [Range<Int>] = []
                for (type, token) in parsed[id] {
                    let length = token.utf8.count
                    if type == 2 { ranges.append(offset..<offset + length) } else if type != 12 { failures.append("\(id): token type \(type)") }
                    offset += length
                }
                if parsed[id].map(\.token).joined() != input { failures.append("\(config) \(input.debugDescription): the tokens do not give the text back") }
                if ranges != expected.map(\.range) {
                    failures.append("\(config) \(input.debugDescription): units \(ranges), library \(expected.map(\.range))")
                }
                var positions: [String: [Int]] = [:]
                for (index, word) in expected.flatMap(\.words).enumerated() { positions[word, default: []].append(index + 1) }
                if vectors[id] != positions {
                    failures.append("\(config) \(input.debugDescription): tsvector \(vectors[id].sorted { $0.key < $1.key }), library \(positions.sorted { $0.key < $1.key })")
                }
            }
            #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(15).joined(separator: "\n"))")
        }
    }

    /// The dictionary alone (ts_lexize, ts_debug: the unit's text folded on its own, without the
    /// rest of the document) gives the unit's words on the token tests' inputs, and a token that
    /// is not a word of the fold (punctuation) is a stop word.
    @Test func theDictionaryAloneGivesTheUnitsWords() throws {
        let db = try TestCluster.freshDatabase()
        let folder = Folder(.search)
        var failures: [String] = []
        for input in tokenTestInputs where !input.isEmpty {
            let bytes = Array(input.utf8)
            for unit in try expectedUnits(input, folder: folder) {
                let text = String(decoding: bytes[unit.range], as: UTF8.self)
                let lexemes = try db.value("SELECT array_to_string(ts_lexize('fold_search', $1), chr(1))", [text])
                if lexemes?.split(separator: "\u{1}").map(String.init) != unit.words {
                    failures.append("\(text.debugDescription) in \(input.debugDescription): \(lexemes ?? "NULL"), library \(unit.words)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(try db.value("SELECT array_length(ts_lexize('fold_search', '—'), 1) IS NULL") == "t")
        #expect(try db.rows("SELECT token, lexemes::text FROM ts_debug('fold', 'L''Été ½') WHERE alias = 'word'")
                == [["L", "{l}"], ["Été", "{ete}"], ["½", "{1,2}"]])
    }

    /// ts_headline with a fold configuration marks the words where the text has them, whole and
    /// as written (Crème for creme, Straße for strasse, ½ for 1 2, é typed with a combining
    /// accent), and gives the rest of the text back unchanged.
    @Test func headlinesMarkTheOriginalWords() throws {
        let db = try TestCluster.freshDatabase()
        let cases: [(text: String, query: String, expected: String)] = [
            ("Crème brûlée à Łódź, and Straße", "creme lodz strasse", "<b>Crème</b> brûlée à <b>Łódź</b>, and <b>Straße</b>"),
            ("Cre\u{300}me bru\u{302}le\u{301}e", "brulee", "Cre\u{300}me <b>bru\u{302}le\u{301}e</b>"),
            ("1½ cups of ﬂour", "flour", "1½ cups of <b>ﬂour</b>"),
            ("東京タワーへ", "東京", "<b>東</b><b>京</b>タワーへ"),
            ("L'Été à Paris", "ete", "L'<b>Été</b> à Paris"),
            ("ＦＵＬＬ　ＷＩＤＴＨ text", "full", "<b>ＦＵＬＬ</b>　ＷＩＤＴＨ text"),
        ]
        for c in cases {
            let headline = try db.value("SELECT ts_headline('fold', $1, fold_tsquery($2, false), 'HighlightAll=true')", [c.text, c.query])
            #expect(headline == c.expected, "\(c.text) / \(c.query)")
        }
        // Without HighlightAll, a fragment of a long text, its words still the original ones.
        let long = String(repeating: "filler words here ", count: 40) + "the Crème brûlée of Łódź " + String(repeating: "more words ", count: 40)
        let fragment = try db.value("SELECT ts_headline('fold', $1, fold_tsquery('lodz creme', false))", [long]) ?? ""
        #expect(fragment.contains("<b>Crème</b> brûlée of <b>Łódź</b>"), "\(fragment)")
        // The ascii configuration.
        #expect(try db.value("SELECT ts_headline('fold_ascii', 'Smørrebrød og Ærø', fold_tsquery('smorrebrod aero', false, 'fold_ascii'))")
                == "<b>Smørrebrød</b> og <b>Ærø</b>")
    }
}

/// fold_tsquery: anything typed becomes a safe tsquery.
@Suite struct QueryTests {
    @Test(arguments: [
        ("Crème brû", true, "'creme' & 'bru':*"),
        ("Crème brûlée", false, "'creme' & 'brulee'"),
        ("AT&T", true, "'at' & 't':*"),
        ("crème-brûlée", false, "'creme' & 'brulee'"),
        ("東京タ", true, "'東' <-> '京' <-> 'た':*"),
        ("½", false, "'1' <-> '2'"),
        ("\"quoted\" | !not :* (paren) <-> & ''", true, "'quoted' & 'not' & 'paren':*"),
        ("O'Reilly's", false, "'o' & 'reilly' & 's'"),
        ("a\\b", false, "'a' & 'b'"),
        ("", true, ""),
        ("  …  ", true, ""),
        ("ＦＵＬＬ", true, "'full':*"),
    ])
    func examples(input: String, prefix: Bool, expected: String) throws {
        let db = try TestCluster.freshDatabase()
        #expect(try db.value("SELECT fold_tsquery($1, $2::boolean)::text", [input, prefix ? "true" : "false"]) == expected)
    }

    /// 5,000 random strings of letters, syntax (quotes, & | ! ( ) :* <->), CJK, marks and
    /// expansions, with each configuration and both prefix settings: never an error, and each
    /// query matches the tsvector of its own text.
    @Test func randomInputIsNeverASyntaxError() throws {
        let db = try TestCluster.freshDatabase()
        let syntax = ["'", "''", "\"", "&", "|", "!", "(", ")", ":", ":*", "*", "<->", "<2>", "\\", "\\'", "-", "~", ":A", ":*B", " ", "  "]
        let inputs = randomStrings(5_000, pieces: tokenPieces + syntax + syntax, maxPieces: 20)
        try db.execute("CREATE TEMPORARY TABLE inputs (id integer, s text)")
        try db.copyIn("COPY inputs FROM STDIN", rows: inputs.enumerated().map { [String($0.offset), $0.element] })
        for config in ["fold", "fold_ascii"] {
            for prefix in ["true", "false"] {
                let failure = error {
                    let counts = try db.rows("""
                        SELECT count(*), count(*) FILTER (WHERE numnode(q) > 0),
                               count(*) FILTER (WHERE numnode(q) > 0 AND NOT to_tsvector($1::regconfig, s) @@ q)
                          FROM (SELECT s, fold_tsquery(s, $2::boolean, $1::regconfig) AS q FROM inputs) x
                        """, [config, prefix])
                    #expect(counts.first?[0] == "5000")
                    #expect(Int(counts.first?[1] ?? "0")! > 4_000, "\(counts)")
                    #expect(counts.first?[2] == "0", "\(config) prefix \(prefix): queries that miss their own text: \(counts)")
                }
                #expect(failure == nil, "\(config) prefix \(prefix): \(String(describing: failure))")
            }
        }
    }

    /// Linear and bounded: a 2,000-word paste (and a 200,000-word one) answers at once; only the
    /// first 64 words are used.
    @Test func longPastesAnswerAtOnce() throws {
        let db = try TestCluster.freshDatabase()
        _ = try db.value("SELECT fold_tsquery('warm up')")
        for words in [2_000, 200_000] {
            let paste = (0..<words).map { ["Crème", "brûlée", "Łódź", "東京", "AT&T", "\"x\"", "(y)"][$0 % 7] }.joined(separator: " ")
            var nodes: String? = nil
            let elapsed = try seconds { nodes = try db.value("SELECT numnode(fold_tsquery($1))", [paste]) }
            #expect(Int(nodes ?? "0")! < 200, "\(nodes ?? "")")
            // Generous bounds (the machine may be busy): a quadratic parse of 200,000 words would
            // take minutes.
            #expect(elapsed < (words == 2_000 ? 0.25 : 1.0), "\(words) words: \(elapsed) s")
        }
    }
}
