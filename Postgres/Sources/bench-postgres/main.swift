// bench-postgres (`make bench-postgres`): the `fold` extension against PostgreSQL's unaccent on
// 1,000,000 titles, in a private cluster, one run, side by side:
//
//   - fold(title) against unaccent(lower(title)) (and lower(title) alone): rows/s, best of 3,
//     alternating, no parallel workers;
//   - GIN build: to_tsvector('fold', title) against to_tsvector('simple', unaccent(title)) (through
//     the IMMUTABLE wrapper every unaccent index needs) and against an unaccent configuration
//     (simple's parser, unaccent then simple);
//   - GIN build with stemming: to_tsvector('fold_english', title) (Fold, English stop words folded
//     and dropped, english_stem) against an `unaccent, english_stem` configuration (english's
//     parser), best of 2, alternating, and what each finds for stemmed queries;
//   - per-keystroke prefix queries, p50/p99: fold_tsquery(prefix) on the fold index against the
//     same query built for the unaccent index (its words unaccented and lowercased, the last a
//     prefix), every prefix of each query from 2 characters (1 for CJK), typed without accents;
//   - what each finds: lodz, strasse, smorrebrod, ελληνικη (the issue's; the corpus has Ελληνικά),
//     ελληνικα, ΕΛΛΗΝΑΣ (capitals: simple lowercases the last Σ to σ, the text has ς), 東京,
//     ガイド (inside a run of kana and kanji) and がいど (katakana typed as hiragana).
//
// Titles: the root benchmarks' generator (Benchmarks/Sources/BenchSupport/Titles.swift, the same
// seed, so the titles bench-sqlite uses) over Benchmarks/Corpora (`make corpora`).
//
//   bench-postgres [--titles N] [--reps N] [--corpora DIR]
import Foundation
import PostgresSupport

var titleCount = 1_000_000
var reps = 5
var corporaDirectory = ProcessInfo.processInfo.environment["FOLD_CORPORA_DIR"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Benchmarks/Corpora").path
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--titles": titleCount = Int(arguments.popFirst() ?? "") ?? titleCount
    case "--reps": reps = Int(arguments.popFirst() ?? "") ?? reps
    case "--corpora": corporaDirectory = arguments.popFirst() ?? corporaDirectory
    default:
        FileHandle.standardError.write(Data("usage: bench-postgres [--titles N] [--reps N] [--corpora DIR]\n".utf8))
        exit(2)
    }
}

// ---- Titles (Benchmarks/Sources/BenchSupport/Titles.swift's makeTitles, seed 1) ----

func loadLines(_ name: String, from directory: String) throws -> [String] {
    let path = directory + "/\(name).txt"
    guard let data = FileManager.default.contents(atPath: path) else {
        throw ClusterError("no corpus at \(path): run `make corpora` in the repository root")
    }
    var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
}

func makeTitles(count: Int, seed: UInt64, corpora: [[String]]) -> [String] {
    var rng = SplitMix64(state: seed)
    var titles: [String] = []
    titles.reserveCapacity(count)
    while titles.count < count {
        let target = rng.inRange(20...80)
        var words: [Substring] = []
        var length = 0
        while length < target {
            let corpus = corpora[rng.below(corpora.count)]
            let line = corpus[rng.below(corpus.count)]
            let lineWords = line.split(separator: " ")
            if lineWords.isEmpty { continue }
            let start = rng.below(lineWords.count)
            let run = rng.inRange(1...4)
            for w in lineWords[start..<min(lineWords.count, start + run)] {
                let extra = (words.isEmpty ? 0 : 1) + w.count
                if length + extra > 80 {
                    let room = 80 - length - (words.isEmpty ? 0 : 1)
                    if length < 20 && room > 0 {
                        words.append(w.prefix(room))
                        length = 80
                    } else {
                        length = max(length, target)
                    }
                    break
                }
                words.append(w)
                length += extra
                if length >= target { break }
            }
        }
        titles.append(words.joined(separator: " "))
    }
    return titles
}

// ---- Timing ----

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = now()
    try body()
    return now() - start
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func ms(_ seconds: Double) -> String { String(format: seconds < 0.01 ? "%.2f ms" : "%.1f ms", seconds * 1000) }

// ---- Run ----

let corpora = try ["english", "european", "mixed"].map { try loadLines($0, from: corporaDirectory) }
let titles = makeTitles(count: titleCount, seed: 1, corpora: corpora)
let titleBytes = titles.reduce(0) { $0 + $1.utf8.count }

let cluster = try Cluster.start(name: "fold-bench", settings: [
    "shared_buffers": "1GB", "maintenance_work_mem": "512MB", "work_mem": "64MB", "autovacuum": "off", "jit": "off",
    "max_parallel_workers_per_gather": "0", "max_parallel_maintenance_workers": "0",
    // Both extensions' libraries loaded into the postmaster, as a server that serves many short
    // connections would have them: fold builds its tables there once, for every backend.
    "shared_preload_libraries": "'fold,unaccent'",
])
defer { cluster.stop() }
let db = try cluster.connect()
let server = try db.value("SELECT version()") ?? ""
try db.execute("""
    CREATE EXTENSION fold;
    CREATE EXTENSION unaccent;
    -- unaccent() is STABLE: an expression index needs an IMMUTABLE wrapper (naming its dictionary).
    CREATE FUNCTION f_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;
    -- The unaccent configuration: simple's parser, unaccent as a filter, then simple.
    CREATE TEXT SEARCH CONFIGURATION unaccent_simple (COPY = simple);
    ALTER TEXT SEARCH CONFIGURATION unaccent_simple
        ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart
        WITH unaccent, simple;
    -- What an application writes for the unaccent index: the typed words unaccented and
    -- lowercased, quoted, ANDed, the last a prefix.
    CREATE FUNCTION unaccent_tsquery(q text) RETURNS tsquery LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        WITH w AS (SELECT array_remove(regexp_split_to_array(lower(public.f_unaccent(q)), '[^[:alnum:]]+'), '') AS a)
        SELECT CASE WHEN cardinality(a) = 0 THEN ''::tsquery
                    ELSE to_tsquery('simple', (SELECT string_agg(quote_literal(x), ' & ') FROM unnest(a) x) || ':*') END
          FROM w
    $$;
    -- The recipe for unaccent and stemming: english's parser, unaccent as a filter, then english_stem.
    CREATE TEXT SEARCH CONFIGURATION unaccent_english (COPY = english);
    ALTER TEXT SEARCH CONFIGURATION unaccent_english ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;
    CREATE TABLE titles (id integer PRIMARY KEY, title text NOT NULL);
    """)
try db.copyIn("COPY titles FROM STDIN", rows: titles.enumerated().lazy.map { [String($0.offset + 1), $0.element] })
try db.execute("VACUUM ANALYZE titles")

print("### PostgreSQL: \(titleCount) titles (\(String(format: "%.1f", Double(titleBytes) / 1e6)) MB), fold against unaccent\n")
print("\(server); fold \(try db.value("SELECT fold_fingerprint()") ?? ""); one run, no parallel workers, shared_buffers 1GB, maintenance_work_mem 512MB, shared_preload_libraries fold and unaccent\n")

// 1. The functions, over every title.
let functions = [("fold(title)", "fold(title)"), ("unaccent(lower(title))", "unaccent(lower(title))"), ("lower(title)", "lower(title)"),
                 ("fold(title, 'ascii')", "fold(title, 'ascii')")]
var best: [String: Double] = [:]
for _ in 0..<3 {
    for (name, expression) in functions {
        let t = try time { _ = try db.value("SELECT sum(length(\(expression))) FROM titles") }
        best[name] = min(best[name] ?? .infinity, t)
    }
}
print("#### Functions over every title (best of 3, alternating)\n")
print("| function | time | rows/s | MB/s | rows/s ÷ unaccent(lower())'s |")
print("|---|---|---|---|---|")
for (name, _) in functions {
    let t = best[name]!
    print("| `\(name)` | \(ms(t)) | \(String(format: "%.2f M", Double(titleCount) / t / 1e6)) | \(String(format: "%.0f", Double(titleBytes) / 1e6 / t)) | \(String(format: "%.2f×", best["unaccent(lower(title))"]! / t)) |")
}

// 2. GIN builds.
let indexes = [
    ("fold", "to_tsvector('fold', title)"),
    ("simple + unaccent()", "to_tsvector('simple', f_unaccent(title))"),
    ("unaccent configuration", "to_tsvector('unaccent_simple', title)"),
]
var build: [String: Double] = [:]
var size: [String: String] = [:]
for (i, (name, expression)) in indexes.enumerated() {
    build[name] = try time { try db.execute("CREATE INDEX gin_\(i) ON titles USING gin ((\(expression)))") }
    size[name] = try db.value("SELECT pg_size_pretty(pg_relation_size('gin_\(i)'))") ?? ""
}
try db.execute("ANALYZE titles")
print("\n#### GIN build (one run each)\n")
print("| index | build | size | vs fold |")
print("|---|---|---|---|")
for (name, expression) in indexes {
    print("| `\(expression)` (\(name)) | \(String(format: "%.1f s", build[name]!)) | \(size[name]!) | \(String(format: "%.2f×", build[name]! / build["fold"]!)) |")
}

// 2b. GIN builds with stemming: Fold then english_stem against unaccent then english_stem, best
// of 2, alternating (each index dropped before the next build).
let stemmed = [
    ("fold_english", "to_tsvector('fold_english', title)"),
    ("unaccent, english_stem", "to_tsvector('unaccent_english', title)"),
]
var stemBuild: [String: Double] = [:]
var stemSize: [String: String] = [:]
for round in 0..<2 {
    for (i, (name, expression)) in stemmed.enumerated() {
        let t = try time { try db.execute("CREATE INDEX stem_\(i) ON titles USING gin ((\(expression)))") }
        stemBuild[name] = min(stemBuild[name] ?? .infinity, t)
        stemSize[name] = try db.value("SELECT pg_size_pretty(pg_relation_size('stem_\(i)'))") ?? ""
        if round == 0 { try db.execute("DROP INDEX stem_\(i)") }
    }
}
try db.execute("ANALYZE titles")
print("\n#### GIN build with stemming (best of 2, alternating)\n")
print("| index | build | size | vs unaccent, english_stem |")
print("|---|---|---|---|")
for (name, expression) in stemmed {
    print("| `\(expression)` (\(name)) | \(String(format: "%.2f s", stemBuild[name]!)) | \(stemSize[name]!) | \(String(format: "%.2f×", stemBuild[name]! / stemBuild["unaccent, english_stem"]!)) |")
}
print("\n#### What each stemming configuration finds (whole words)\n")
print("| query | fold_english | unaccent, english_stem | a title only fold_english finds |")
print("|---|---|---|---|")
for query in ["running", "lovers", "creme", "lodz", "strasse", "ελληνικα", "東京"] {
    let fold = try db.value("SELECT count(*) FROM titles WHERE to_tsvector('fold_english', title) @@ fold_tsquery($1, false, 'fold_english')", [query]) ?? "?"
    let unaccent = try db.value("SELECT count(*) FROM titles WHERE to_tsvector('unaccent_english', title) @@ plainto_tsquery('unaccent_english', $1)", [query]) ?? "?"
    let example = try db.value("""
        SELECT title FROM titles WHERE to_tsvector('fold_english', title) @@ fold_tsquery($1, false, 'fold_english')
           AND NOT to_tsvector('unaccent_english', title) @@ plainto_tsquery('unaccent_english', $1) ORDER BY id LIMIT 1
        """, [query]).map { "`\($0)`" } ?? ""
    print("| `\(query)` | \(fold) | \(unaccent) | \(example) |")
}

// 3. Keystrokes.
let typed = ["lodz", "strasse", "smorrebrod", "creme brulee", "muller", "ελληνικα", "東京", "reykjavik"]
var prefixes: [String] = []
for query in typed {
    let characters = Array(query)
    let first = characters.first!.unicodeScalars.first!.value >= 0x3000 ? 1 : 2
    for n in first...characters.count { prefixes.append(String(characters[..<n])) }
}
let foldQuery = "SELECT id, title FROM titles WHERE to_tsvector('fold', title) @@ fold_tsquery($1) LIMIT 20"
let unaccentQuery = "SELECT id, title FROM titles WHERE to_tsvector('simple', f_unaccent(title)) @@ unaccent_tsquery($1) LIMIT 20"
for prefix in prefixes {  // warm the caches
    _ = try db.rows(foldQuery, [prefix])
    _ = try db.rows(unaccentQuery, [prefix])
}
var latencies: [String: [Double]] = ["fold": [], "unaccent": []]
for _ in 0..<reps {
    for prefix in prefixes {
        latencies["fold"]!.append(try time { _ = try db.rows(foldQuery, [prefix]) })
        latencies["unaccent"]!.append(try time { _ = try db.rows(unaccentQuery, [prefix]) })
    }
}
let plan = try db.rows("EXPLAIN " + foldQuery.replacingOccurrences(of: "$1", with: "'lodz'")).map { $0[0]! }
print("\n#### Per keystroke: \(prefixes.count) prefixes of \(typed.map { "`\($0)`" }.joined(separator: ", ")) × \(reps), 20 rows each (client round trip over the Unix socket)\n")
print("| query | p50 | p99 | max | vs unaccent p99 |")
print("|---|---|---|---|---|")
for (name, query) in [("fold", "`fold_tsquery(prefix)` on the fold index"), ("unaccent", "`unaccent_tsquery(prefix)` on the simple + unaccent() index")] {
    let values = latencies[name]!
    print("| \(query) | \(ms(percentile(values, 0.5))) | \(ms(percentile(values, 0.99))) | \(ms(values.max()!)) | \(String(format: "%.2f×", percentile(values, 0.99) / percentile(latencies["unaccent"]!, 0.99))) |")
}
print("\nPlan of the fold query: \(plan.filter { $0.contains("Scan") }.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; "))")

// 4. What each finds (whole words, no prefix).
print("\n#### What each finds (whole words)\n")
print("| query | fold | simple + unaccent() | unaccent configuration | a title only fold finds |")
print("|---|---|---|---|---|")
for word in ["lodz", "strasse", "smorrebrod", "ελληνικη", "ελληνικα", "ΕΛΛΗΝΑΣ", "東京", "ガイド", "がいど"] {
    let fold = try db.value("SELECT count(*) FROM titles WHERE to_tsvector('fold', title) @@ fold_tsquery($1, false)", [word]) ?? "?"
    let simple = try db.value("SELECT count(*) FROM titles WHERE to_tsvector('simple', f_unaccent(title)) @@ plainto_tsquery('simple', f_unaccent($1))", [word]) ?? "?"
    let config = try db.value("SELECT count(*) FROM titles WHERE to_tsvector('unaccent_simple', title) @@ plainto_tsquery('unaccent_simple', $1)", [word]) ?? "?"
    let example = try db.value("""
        SELECT title FROM titles WHERE to_tsvector('fold', title) @@ fold_tsquery($1, false)
           AND NOT to_tsvector('simple', f_unaccent(title)) @@ plainto_tsquery('simple', f_unaccent($1)) ORDER BY id LIMIT 1
        """, [word]).map { "`\($0)`" } ?? ""
    print("| `\(word)` | \(fold) | \(simple) | \(config) | \(example) |")
}

// 5. A new connection per query: what an application without a connection pool pays. Each
// query opens a connection, runs a prefix query of a title's first word on the GIN index, and
// closes it; fold and unaccent alternate, one client. Then the first fold of a new connection
// against its second.
let firstWords = titles.prefix(2_000).compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0.count >= 3 }
let perConnection = 200
var connectionTimes: [String: Double] = ["fold": 0, "unaccent": 0]
for k in 0..<perConnection {
    let word = firstWords[k % firstWords.count]
    let prefix = String(word.prefix(max(2, word.count - 1)))
    connectionTimes["fold"]! += try time {
        let c = try cluster.connect()
        _ = try c.rows(foldQuery, [prefix])
    }
    connectionTimes["unaccent"]! += try time {
        let c = try cluster.connect()
        _ = try c.rows(unaccentQuery, [prefix])
    }
}
var firstFold: [Double] = [], secondFold: [Double] = []
for _ in 0..<20 {
    let c = try cluster.connect()
    firstFold.append(try time { _ = try c.value("SELECT to_tsvector('fold', 'Crème ภาษาไทย 東京 Łódź')::text") })
    secondFold.append(try time { _ = try c.value("SELECT to_tsvector('fold', 'Crème ภาษาไทย 東京 Łódź')::text") })
}
print("\n#### A new connection per query (\(perConnection) each, alternating, one client)\n")
print("| query | queries/s | vs unaccent |")
print("|---|---|---|")
for name in ["fold", "unaccent"] {
    let tps = Double(perConnection) / connectionTimes[name]!
    print("| \(name) prefix query on its GIN index | \(String(format: "%.0f", tps)) | \(String(format: "%.2f×", connectionTimes["unaccent"]! / connectionTimes[name]!)) |")
}
print("\nFirst `to_tsvector('fold', …)` of a new connection: p50 \(ms(percentile(firstFold, 0.5))), the second: p50 \(ms(percentile(secondFold, 0.5))) (20 connections)")
