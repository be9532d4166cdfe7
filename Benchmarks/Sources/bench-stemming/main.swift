// bench-stemming: what stemming after the fold costs Swift's in-memory search (issue 36).
//
//   swift build -c release --product bench-stemming && .build/release/bench-stemming [--titles N] [--reps 5]
//
// Titles as in bench-live (20 to 80 characters from the three corpora). For each:
//   build      SearchIndex(titles) (the folded texts) against StemmedSearchIndex(titles) (the
//              same SearchIndex, plus every title's words stemmed and each stem's titles),
//              seconds, and the stems and (stem, title) entries stemming adds
//   keystroke  every prefix from 3 characters of the queries, typed --reps times: Matcher
//              word prefixes over the SearchIndex (what a search box does without stemming)
//              against StemmedSearchIndex.search (whole words by stem, the typed word by prefix
//              or stem); p50/p99, and the titles each finds for the whole queries
//   stemmer    Stemmer.tokens over the titles against Folder.tokens: MB/s of titles
import BenchSupport
import Fold
import FoldSnowball
import Foundation

var titleCount = 1_000_000
var reps = 5
var arguments = BenchArguments(tool: "bench-stemming", usage: "usage: bench-stemming [--titles N] [--reps N]\n")
while let flag = arguments.nextFlag() {
    switch flag {
    case "--titles": titleCount = arguments.count(of: flag)
    case "--reps": reps = arguments.count(of: flag)
    default: arguments.fail("unknown argument \(flag)")
    }
}
let clock = ContinuousClock()
func ms(_ d: Duration) -> Double { milliseconds(d) }

let corpora = try Corpus.names.map { try Corpus.load($0) }
let titles = makeTitles(count: titleCount, seed: 1, corpora: corpora)
let bytes = titles.reduce(0) { $0 + $1.utf8.count }
let folder = Folder(.search)
let stemmer = try Stemmer(language: "english", folder: folder)
let items = titles.enumerated().map { (id: $0.offset, text: $0.element) }

print("### Stemming in Swift's search: \(titleCount) titles (\(String(format: "%.1f", Double(bytes) / 1e6)) MB), English Snowball after the search fold\n")
log("building")
var t = clock.now
let plain = SearchIndex(items, folder: folder)
let plainBuild = ms(clock.now - t)
t = clock.now
let stemmed = StemmedSearchIndex(items, stemmer: stemmer)
let stemmedBuild = ms(clock.now - t)
let counts = stemmed.stemCounts
print("| index | build | what it adds |")
print("|---|---:|---|")
print("| SearchIndex | \(String(format: "%.2f s", plainBuild / 1000)) | |")
print("| StemmedSearchIndex | \(String(format: "%.2f s (%.2f×)", stemmedBuild / 1000, stemmedBuild / plainBuild)) | \(counts.stems) stems, \(counts.entries) (stem, title) entries (about \(String(format: "%.0f", Double(counts.entries) * 4 / 1e6)) MB of positions) |")

let queries = ["running shoes", "relationships", "creme brulee", "eichhornchen", "lodz"]
var plainTimes: [Double] = [], stemmedTimes: [Double] = []
log("typing")
for _ in 0..<reps {
    for q in queries {
        for n in 3...q.count {
            let typed = String(q.prefix(n))
            t = clock.now
            _ = try await Matcher(typed, folder: folder, mode: .wordPrefixes(.anyOrder)).filter(plain)
            plainTimes.append(ms(clock.now - t))
            t = clock.now
            _ = try await stemmed.search(typed)
            stemmedTimes.append(ms(clock.now - t))
        }
    }
}
print("\n| search | keystroke p50 | keystroke p99 |")
print("|---|---:|---:|")
print("| Matcher word prefixes over SearchIndex | \(String(format: "%.2f ms", percentile(plainTimes, 0.5))) | \(String(format: "%.2f ms", percentile(plainTimes, 0.99))) |")
print("| StemmedSearchIndex.search | \(String(format: "%.2f ms (%.2f×)", percentile(stemmedTimes, 0.5), percentile(stemmedTimes, 0.5) / percentile(plainTimes, 0.5))) | \(String(format: "%.2f ms (%.2f×)", percentile(stemmedTimes, 0.99), percentile(stemmedTimes, 0.99) / percentile(plainTimes, 0.99))) |")

print("\n| whole query (ends with a space) | word prefixes | stemmed |")
print("|---|---:|---:|")
for q in queries {
    let p = try await Matcher(q, folder: folder, mode: .wordPrefixes(.anyOrder)).filter(plain).count
    let s = try await stemmed.search(q + " ").count
    print("| \(q) | \(p) | \(s) |")
}

log("stemmer throughput")
var best: [String: Double] = [:]
for _ in 0..<3 {
    t = clock.now
    var n = 0
    for title in titles { for _ in folder.tokens(in: title) { n += 1 } }
    best["tokens", default: .infinity] = min(best["tokens", default: .infinity], ms(clock.now - t))
    t = clock.now
    var m = 0
    for title in titles { m += stemmer.tokens(in: title).count }
    best["stems", default: .infinity] = min(best["stems", default: .infinity], ms(clock.now - t))
    precondition(n == m)
}
print("\n| per title | MB/s of titles |")
print("|---|---:|")
print("| Folder.tokens | \(String(format: "%.0f", Double(bytes) / 1e3 / best["tokens"]!)) |")
print("| Stemmer.tokens (fold, then stem) | \(String(format: "%.0f (%.2f×)", Double(bytes) / 1e3 / best["stems"]!, best["tokens"]! / best["stems"]!)) |")
