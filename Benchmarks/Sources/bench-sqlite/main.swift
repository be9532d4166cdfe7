// bench-sqlite: 1,000,000 titles in FTS5 with the `fold` tokenizer (plain and with
// `typed_diacritics`), `snowball english fold` (Snowball after the fold, unstemmed words beside
// the stems for prefixes), `porter unicode61 remove_diacritics 2`, `unicode61 remove_diacritics 2`
// and `trigram`, in one run (issues 13, 28 and 36); then the fold() SQL function against lower()
// over the same titles.
//
//   swift build -c release --product bench-sqlite && .build/release/bench-sqlite [--titles N] [--reps 5]
//
// For each tokenizer: build time (one transaction, titles inserted one by one into an FTS5
// table with its own content), database size (file bytes after the build), and query time per
// keystroke: queries typed without accents, every prefix from 3 characters, as the live search
// would send them (fold: FTSQuery, the last word a prefix; snowball: FTSQuery's stemmed form, the
// last word a prefix or its stem; unicode61 and porter: the same quoted words with the last a prefix; trigram: the typed text as one quoted string), `SELECT rowid ... LIMIT 50`
// plus the count of all matches, p50/p99 over --reps repetitions. Then recall: for each query,
// the titles `fold` finds that unicode61 misses, with examples.
import BenchSupport
import CSQLitePeer
import Fold
import FoldSQLite
import FoldSQLiteSnowball
import Foundation

var titleCount = 1_000_000
var reps = 5
var arguments = BenchArguments(tool: "bench-sqlite", usage: "usage: bench-sqlite [--titles N] [--reps N]\n")
while let flag = arguments.nextFlag() {
    switch flag {
    case "--titles": titleCount = arguments.count(of: flag)
    case "--reps": reps = arguments.count(of: flag)
    default: arguments.fail("unknown argument \(flag)")
    }
}
let clock = ContinuousClock()
func ms(_ d: Duration) -> Double { milliseconds(d) }

final class DB {
    let handle: OpaquePointer
    init(_ path: String) {
        var db: OpaquePointer? = nil
        precondition(sqlite3_open(path, &db) == SQLITE_OK)
        handle = db!
        try! SQLiteRegistration.register(on: handle)
        try! SQLiteRegistration.registerSnowball(on: handle)
    }
    deinit { sqlite3_close_v2(handle) }
    func exec(_ sql: String) {
        var err: UnsafeMutablePointer<CChar>? = nil
        if sqlite3_exec(handle, sql, nil, nil, &err) != SQLITE_OK { fatalError(String(cString: err!)) }
    }
    func prepare(_ sql: String) -> OpaquePointer {
        var s: OpaquePointer? = nil
        precondition(sqlite3_prepare_v2(handle, sql, -1, &s, nil) == SQLITE_OK, String(cString: sqlite3_errmsg(handle)))
        return s!
    }
    /// The rowids (at most `limit`) and the count of all matches.
    func query(_ table: String, _ match: String, limit: Int) -> (ids: [Int64], count: Int) {
        let s = prepare("SELECT rowid FROM \(table) WHERE \(table) MATCH ?1")
        defer { sqlite3_finalize(s) }
        sqlite3_bind_text(s, 1, match, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        var ids: [Int64] = [], count = 0
        while true {
            let rc = sqlite3_step(s)
            if rc != SQLITE_ROW { break }
            if ids.count < limit { ids.append(sqlite3_column_int64(s, 0)) }
            count += 1
        }
        return (ids, count)
    }
    func rowids(_ table: String, _ match: String) -> Set<Int64> {
        let s = prepare("SELECT rowid FROM \(table) WHERE \(table) MATCH ?1")
        defer { sqlite3_finalize(s) }
        sqlite3_bind_text(s, 1, match, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        var out = Set<Int64>()
        while sqlite3_step(s) == SQLITE_ROW { out.insert(sqlite3_column_int64(s, 0)) }
        return out
    }
}

let corpora = try Corpus.names.map { try Corpus.load($0) }
let titles = makeTitles(count: titleCount, seed: 1, corpora: corpora)
let folder = Folder(.search)
let english = try FTSStemming.snowball("english")
let queries = ["creme brulee", "lodz", "strasse", "smorrebrod", "ecole normale", "relationship", "eichhornchen"]
let tokenizers = [("fold", "fold"), ("fold+typed", "fold search typed_diacritics"), ("snowball english fold", "snowball english fold"),
                  ("porter unicode61", "porter unicode61 remove_diacritics 2"), ("unicode61", "unicode61 remove_diacritics 2"), ("trigram", "trigram")]
let directory = NSTemporaryDirectory() + "bench-sqlite-\(getpid())"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }

func matchExpression(_ tokenizer: String, _ typed: String) -> String? {
    switch tokenizer {
    case "fold": return FTSQuery.match(typed, folder: folder)
    case "fold+typed": return FTSQuery.match(typed, folder: folder, typedDiacritics: true)
    case "snowball english fold": return FTSQuery.match(typed, folder: folder, stemming: english)
    case "trigram": return "\"" + typed.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    default:
        let words = typed.split(separator: " ").map { "\"" + $0 + "\"" }
        return words.isEmpty ? nil : words.joined(separator: " ") + "*"
    }
}

print("### SQLite FTS5: \(titleCount) titles, queries typed without accents (every prefix from 3 characters, \(reps) repetitions)\n")
var rows: [(String, Double, Int, Double, Double)] = []
var dbs: [String: DB] = [:]
var buildTimes: [String: Double] = [:]
// Per tokenizer and typed prefix: the query times, and how many rows it matched.
var prefixTimes: [String: [String: [Double]]] = [:]
var prefixCounts: [String: [String: Int]] = [:]
for (name, arguments) in tokenizers {
    log("building \(name)")
    let path = directory + "/\(name).db"
    let db = DB(path)
    db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
    db.exec("CREATE VIRTUAL TABLE t USING fts5(title, tokenize = '\(arguments)')")
    let t0 = clock.now
    db.exec("BEGIN")
    let insert = db.prepare("INSERT INTO t(title) VALUES (?1)")
    for title in titles {
        sqlite3_bind_text(insert, 1, title, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        precondition(sqlite3_step(insert) == SQLITE_DONE)
        sqlite3_reset(insert)
    }
    sqlite3_finalize(insert)
    db.exec("COMMIT")
    let build = ms(clock.now - t0)
    buildTimes[name] = build
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    var times: [Double] = []
    for _ in 0..<reps {
        for q in queries {
            for n in 3...q.count {
                guard let match = matchExpression(name, String(q.prefix(n))) else { continue }
                let t = clock.now
                let (_, count) = db.query("t", match, limit: 50)
                times.append(ms(clock.now - t))
                prefixTimes[name, default: [:]][String(q.prefix(n)), default: []].append(times.last!)
                prefixCounts[name, default: [:]][String(q.prefix(n))] = count
            }
        }
    }
    dbs[name] = db
    rows.append((name, build, size, percentile(times, 0.5), percentile(times, 0.99)))
}
let base = rows.first { $0.0 == "unicode61" }!
print("| tokenizer | build | database | keystroke p50 | keystroke p99 |")
print("|---|---:|---:|---:|---:|")
for (name, build, size, p50, p99) in rows {
    print("| \(name) | \(String(format: "%.1f s (%.2f×)", build / 1000, build / base.1)) | \(String(format: "%.0f MB", Double(size) / 1e6)) | \(String(format: "%.2f ms (%.2f×)", p50, p50 / base.3)) | \(String(format: "%.2f ms (%.2f×)", p99, p99 / base.4)) |")
}
print("\nRatios in parentheses are to unicode61 in the same run.\n")
// The same comparison on the prefixes where both tokenizers match as many rows: what the fold
// costs per query, apart from the rows it finds that unicode61 misses.
let same = prefixCounts["fold", default: [:]].filter { prefixCounts["unicode61"]?[$0.key] == $0.value }.map(\.key)
if !same.isEmpty {
    let f = same.flatMap { prefixTimes["fold"]![$0]! }, u = same.flatMap { prefixTimes["unicode61"]![$0]! }
    print(String(format: "On the %d typed prefixes where fold and unicode61 match as many rows: p50 %.3f ms against %.3f ms (%.2f×), p99 %.2f ms against %.2f ms (%.2f×).\n",
                 same.count, percentile(f, 0.5), percentile(u, 0.5), percentile(f, 0.5) / percentile(u, 0.5),
                 percentile(f, 0.99), percentile(u, 0.99), percentile(f, 0.99) / percentile(u, 0.99)))
}
print("#### Recall: what `fold` finds that `unicode61 remove_diacritics 2` misses\n")
print("| query | fold | unicode61 | found by fold only | examples |")
print("|---|---:|---:|---:|---|")
for q in queries {
    let f = dbs["fold"]!.rowids("t", FTSQuery.match(q, folder: folder, prefixLast: false)!)
    let u = dbs["unicode61"]!.rowids("t", q.split(separator: " ").map { "\"\($0)\"" }.joined(separator: " "))
    let only = f.subtracting(u).sorted()
    let examples = only.prefix(3).map { "`" + titles[Int($0) - 1] + "`" }.joined(separator: "; ")
    print("| \(q) | \(f.count) | \(u.count) | \(only.count) | \(examples) |")
}

// Stemming: the rows whole-word queries find with the fold alone, with Snowball after the fold,
// and with SQLite's porter over unicode61.
print("\n#### Stemming: rows found by whole-word queries (typed without accents)\n")
print("| query | fold | snowball english fold | porter unicode61 remove_diacritics 2 |")
print("|---|---:|---:|---:|")
for q in ["relationships", "running", "creme brulee", "schools", "eichhornchen", "lodz"] {
    let f = dbs["fold"]!.rowids("t", FTSQuery.match(q, folder: folder, prefixLast: false)!).count
    let s = dbs["snowball english fold"]!.rowids("t", FTSQuery.match(q, folder: folder, prefixLast: false, stemming: english)!).count
    let p = dbs["porter unicode61"]!.rowids("t", q.split(separator: " ").map { "\"\($0)\"" }.joined(separator: " ")).count
    print("| \(q) | \(f) | \(s) | \(p) |")
}

// The SQL function: fold(title) over every title against SQLite's lower(title), alternating,
// best of 3 each, in one table of the same titles.
print("\n#### The fold() SQL function against lower(), \(titleCount) titles\n")
let plain = DB(directory + "/plain.db")
plain.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; CREATE TABLE p (title TEXT)")
plain.exec("BEGIN")
let add = plain.prepare("INSERT INTO p VALUES (?1)")
var titleBytes = 0
for title in titles {
    titleBytes += title.utf8.count
    sqlite3_bind_text(add, 1, title, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    precondition(sqlite3_step(add) == SQLITE_DONE)
    sqlite3_reset(add)
}
sqlite3_finalize(add)
plain.exec("COMMIT")
var best: [String: Double] = [:]
for _ in 0..<3 {
    for function in ["fold", "lower"] {
        let s = plain.prepare("SELECT sum(length(\(function)(title))) FROM p")
        let t = clock.now
        precondition(sqlite3_step(s) == SQLITE_ROW)
        let elapsed = ms(clock.now - t)
        sqlite3_finalize(s)
        best[function] = min(best[function] ?? .infinity, elapsed)
    }
}
print("| function | time | MB/s of titles |")
print("|---|---:|---:|")
for function in ["fold", "lower"] {
    let t = best[function]!
    print("| \(function)(title) | \(String(format: "%.0f ms (%.2f× lower)", t, t / best["lower"]!)) | \(String(format: "%.0f", Double(titleBytes) / 1e6 / (t / 1000))) |")
}
