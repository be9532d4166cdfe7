// bench-keystrokes: search-as-you-type latency over 100,000 pre-folded titles.
//
//   swift build -c release --product bench-keystrokes && .build/release/bench-keystrokes
//       [--titles 100000] [--reps 30] [--foundation-reps 30] [--seed 1] [--corpora DIR]
//       [--word WORD]... [--words-query QUERY]... [--no-foundation]
//
// Builds `--titles` titles of 20 to 80 characters from the three corpora (a seeded generator
// picks runs of consecutive words from random lines of random corpora, so most titles mix
// languages and scripts), folds each once into a `SearchIndex` (timed: the pre-folding row),
// then types each query one keystroke at a time. For every prefix it times:
//
//   Fold SearchIndex  `Matcher(prefix, folder:)` built, then `try await matcher.filter(index)`
//   Foundation        `title.range(of: prefix, options: [.caseInsensitive, .diacriticInsensitive])`
//                     over every original title (no pre-folding: Foundation has no such API)
//
// The index's matches are checked once per keystroke against `matcher.hasMatch(in:)` on every
// title (not timed). The whole keystroke sequence is repeated `--reps` times (Foundation
// `--foundation-reps` times), interleaved, so the two are measured under the same load. p50 and p99 are nearest-
// rank percentiles of the per-keystroke times (with 30 repetitions, p99 is the slowest one).
// Word-prefix queries (`--words-query`) run `Matcher(prefix, folder:, mode: .wordPrefixes(.inOrder))`
// the same way (no Foundation equivalent). Tables on stdout, progress on stderr.
import BenchSupport
import Fold
import Foundation

struct Options {
    var titles = 100_000
    var reps = 30
    var foundationReps: Int? = nil
    var seed: UInt64 = 1
    var corporaDirectory: String? = nil
    var words: [String] = []
    var wordsQueries: [String] = []
    var foundation = true
}

func usage() -> Never {
    FileHandle.standardError.write(Data("""
        usage: bench-keystrokes [--titles N] [--reps N] [--foundation-reps N] [--seed S] [--corpora DIR]
                                [--word WORD]... [--words-query QUERY]... [--no-foundation]
          --titles N           titles to build and pre-fold (default 100000)
          --reps N             times each keystroke sequence is typed (default 30)
          --foundation-reps N  repetitions for Foundation's range(of:options:) (default: --reps)
          --seed S             title generator seed (default 1)
          --word WORD          a substring query typed one keystroke at a time (repeatable;
                               default: relationship, eichhornchen)
          --words-query QUERY  a word-prefix (.inOrder) query typed one keystroke at a time
                               (repeatable; default: "creme brulee")
          --no-foundation      skip the Foundation columns

        """.utf8))
    exit(2)
}

func parseOptions() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    func value(_ flag: String) -> String {
        guard let v = args.popFirst() else {
            FileHandle.standardError.write(Data("bench-keystrokes: \(flag) needs a value\n".utf8))
            usage()
        }
        return v
    }
    while let arg = args.popFirst() {
        switch arg {
        case "--titles": guard let n = Int(value(arg)), n > 0 else { usage() }; o.titles = n
        case "--reps": guard let n = Int(value(arg)), n > 0 else { usage() }; o.reps = n
        case "--foundation-reps": guard let n = Int(value(arg)), n > 0 else { usage() }; o.foundationReps = n
        case "--seed": guard let n = UInt64(value(arg)) else { usage() }; o.seed = n
        case "--corpora": o.corporaDirectory = value(arg)
        case "--word": o.words.append(value(arg))
        case "--words-query": o.wordsQueries.append(value(arg))
        case "--no-foundation": o.foundation = false
        case "-h", "--help": usage()
        default:
            FileHandle.standardError.write(Data("bench-keystrokes: unknown argument \(arg)\n".utf8))
            usage()
        }
    }
    if o.words.isEmpty { o.words = ["relationship", "eichhornchen"] }
    if o.wordsQueries.isEmpty { o.wordsQueries = ["creme brulee"] }
    return o
}



func milliseconds(_ d: Duration) -> Double {
    let c = d.components
    return Double(c.seconds) * 1e3 + Double(c.attoseconds) / 1e15
}

/// Nearest-rank percentile.

func ms(_ v: Double) -> String {
    if v >= 100 { return String(format: "%.0f", v) }
    if v >= 10 { return String(format: "%.1f", v) }
    if v >= 1 { return String(format: "%.2f", v) }
    return String(format: "%.3f", v)
}

func ratio(_ r: Double) -> String {
    r >= 10 ? String(format: "%.0f×", r) : String(format: "%.1f×", r)
}

/// Per keystroke: the samples of each measured method and the match counts.
struct KeystrokeRun {
    var prefixes: [String]
    var index: [[Double]]
    var foundation: [[Double]]
    var indexMatches: [Int]
    /// What `Matcher.hasMatch(in:)` finds, one title at a time: the reference.
    var textMatches: [Int]
    var foundationMatches: [Int]

    init(query: String) {
        let chars = Array(query)
        prefixes = (1...chars.count).map { String(chars[0..<$0]) }
        let empty = [[Double]](repeating: [], count: chars.count)
        index = empty; foundation = empty
        indexMatches = Array(repeating: -1, count: chars.count)
        textMatches = indexMatches
        foundationMatches = indexMatches
    }
}

func typeQuery(_ query: String, mode: Matcher.Mode, folder: Folder, titles: [String],
               index: SearchIndex<Int>, reps: Int, foundationReps: Int) async throws -> KeystrokeRun {
    var run = KeystrokeRun(query: query)
    let clock = ContinuousClock()
    let foldOptions: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
    for rep in 0..<max(reps, foundationReps) {
        for (k, prefix) in run.prefixes.enumerated() {
            if rep < reps {
                let t0 = clock.now
                let matcher = Matcher(prefix, folder: folder, mode: mode)
                let n = try await matcher.filter(index).count
                let t1 = clock.now
                run.index[k].append(milliseconds(t1 - t0))
                if run.indexMatches[k] >= 0 && run.indexMatches[k] != n { log("  warning: index count changed for \(prefix)") }
                run.indexMatches[k] = n
                if rep == 0 { run.textMatches[k] = titles.reduce(0) { $0 + (matcher.hasMatch(in: $1) ? 1 : 0) } }
            }
            if rep < foundationReps {
                var count = 0
                let t0 = clock.now
                for title in titles where title.range(of: prefix, options: foldOptions) != nil { count += 1 }
                let t1 = clock.now
                run.foundation[k].append(milliseconds(t1 - t0))
                run.foundationMatches[k] = count
            }
        }
        if rep == 0 || (rep + 1) % 10 == 0 { log("  \(query): repetition \(rep + 1) done") }
    }
    return run
}

func table(_ run: KeystrokeRun, title: String, withFoundation: Bool) -> String {
    var s = "#### \(title)\n\n"
    s += "| # | typed | Fold matches | Fold SearchIndex p50 | Fold SearchIndex p99"
    var rule = "|---:|---|---:|---:|---:"
    if withFoundation {
        s += " | Foundation matches | Foundation p50 | Foundation p99 | Foundation ÷ Fold SearchIndex (p50)"
        rule += "|---:|---:|---:|---:"
    }
    s += " |\n" + rule + "|\n"
    for k in run.prefixes.indices {
        let typed = "`" + run.prefixes[k].replacingOccurrences(of: " ", with: "␣") + "`"
        let p50 = percentile(run.index[k], 0.5), p99 = percentile(run.index[k], 0.99)
        var row = "| \(k + 1) | \(typed) | \(run.indexMatches[k]) | \(ms(p50)) | \(ms(p99))"
        if withFoundation {
            let fp50 = percentile(run.foundation[k], 0.5)
            row += " | \(run.foundationMatches[k]) | \(ms(fp50)) | \(ms(percentile(run.foundation[k], 0.99))) | \(ratio(fp50 / p50))"
        }
        s += row + " |\n"
    }
    let all = run.index.flatMap { $0 }
    var row = "| all | \(all.count) samples | | \(ms(percentile(all, 0.5))) | \(ms(percentile(all, 0.99)))"
    if withFoundation {
        let allF = run.foundation.flatMap { $0 }
        row += " | \(allF.count) samples | \(ms(percentile(allF, 0.5))) | \(ms(percentile(allF, 0.99))) | \(ratio(percentile(allF, 0.5) / percentile(all, 0.5)))"
    }
    s += row + " |\n"
    for k in run.prefixes.indices where run.indexMatches[k] != run.textMatches[k] {
        s += "\nMISMATCH at keystroke \(k + 1): the SearchIndex found \(run.indexMatches[k]), hasMatch(in:) on each title \(run.textMatches[k]).\n"
    }
    return s
}

// MARK: - Main

let options = parseOptions()
let foundationReps = options.foundation ? (options.foundationReps ?? options.reps) : 0

var corpora: [Corpus] = []
do {
    for name in Corpus.names { corpora.append(try Corpus.load(name, directory: options.corporaDirectory)) }
} catch {
    log("bench-keystrokes: \(error)")
    exit(1)
}

let clock = ContinuousClock()
log("building \(options.titles) titles (seed \(options.seed))")
let titles = makeTitles(count: options.titles, seed: options.seed, corpora: corpora)
let titleBytes = titles.reduce(0) { $0 + $1.utf8.count }
let titleChars = titles.reduce(0) { $0 + $1.count }
let nonASCII = titles.filter { $0.utf8.contains { $0 >= 0x80 } }.count

let folder: Folder
folder = Folder(.search)
// Warm the folder's tables on a few titles (not timed), then fold them all once.
for t in titles.prefix(100) { _ = folder.fold(t) }
let t0 = clock.now
let index = SearchIndex(titles.enumerated().map { (id: $0, text: $1) }, folder: folder)
let prefoldMS = milliseconds(clock.now - t0)
// For comparison: fold alone (the index also finds each key's word starts and summary).
let t1 = clock.now
var foldedBytes = 0
for t in titles { foldedBytes += folder.fold(t).utf8.count }
let foldOnlyMS = milliseconds(clock.now - t1)

log("pre-folded \(index.count) keys in \(ms(prefoldMS)) ms")

print("### Pre-folding \(options.titles) titles\n")
print("| step | titles | input | time | throughput |")
print("|---|---:|---:|---:|---:|")
print("| `SearchIndex(_:folder:)` (fold + word starts + summaries, on every core) | \(titles.count) | \(String(format: "%.2f", Double(titleBytes) / 1e6)) MB | \(ms(prefoldMS)) ms | \(String(format: "%.1f", Double(titleBytes) / 1e6 / (prefoldMS / 1e3))) MB/s |")
print("| `folder.fold(_:)` alone, for comparison | \(titles.count) | \(String(format: "%.2f", Double(titleBytes) / 1e6)) MB | \(ms(foldOnlyMS)) ms | \(String(format: "%.1f", Double(titleBytes) / 1e6 / (foldOnlyMS / 1e3))) MB/s |")
print("")
print("Titles: \(titles.count), \(titleChars) characters (\(String(format: "%.1f", Double(titleChars) / Double(titles.count))) per title), \(titleBytes) UTF-8 bytes; \(nonASCII) titles (\(String(format: "%.0f", 100 * Double(nonASCII) / Double(titles.count)))%) contain non-ASCII. Examples:")
print("")
for i in [0, 1, 2, 3, 4, 5] where i < titles.count { print("- `\(titles[i])` → `\(index.key(at: i))`") }
print("")

var summaries: [String] = []
var worstSubstringP99 = 0.0
var loopP50s: [Double] = [], foundationP50s: [Double] = []

for word in options.words {
    log("typing \"\(word)\" (substring), \(options.reps) repetitions, Foundation \(foundationReps)")
    let run = try await typeQuery(word, mode: .substring, folder: folder, titles: titles,
                                  index: index, reps: options.reps, foundationReps: foundationReps)
    print(table(run, title: "Substring: \"\(word)\" typed one keystroke at a time (\(options.reps) repetitions; Foundation \(foundationReps)); times in ms per keystroke over \(titles.count) titles", withFoundation: foundationReps > 0))
    if foundationReps > 0 {
        // Where Fold and Foundation disagree: one example each way, for the first keystroke
        // whose counts differ.
        if let k = run.prefixes.indices.first(where: { run.indexMatches[$0] != run.foundationMatches[$0] }) {
            let prefix = run.prefixes[k]
            let matcher = Matcher(prefix, folder: folder)
            var onlyFold: Int? = nil, onlyFoundation: Int? = nil
            var foldOnlyCount = 0, foundationOnlyCount = 0
            for (i, title) in titles.enumerated() {
                let a = matcher.hasMatch(in: title)
                let b = title.range(of: prefix, options: [.caseInsensitive, .diacriticInsensitive]) != nil
                if a && !b { foldOnlyCount += 1; if onlyFold == nil { onlyFold = i } }
                if b && !a { foundationOnlyCount += 1; if onlyFoundation == nil { onlyFoundation = i } }
            }
            print("Fold and Foundation disagree from keystroke \(k + 1) (`\(prefix)`): \(foldOnlyCount) titles match only in Fold, \(foundationOnlyCount) only in Foundation.")
            if let i = onlyFold { print("For example only Fold: `\(titles[i])` (folded `\(index.key(at: i))`).") }
            if let i = onlyFoundation { print("For example only Foundation: `\(titles[i])` (folded `\(index.key(at: i))`).") }
            print("")
        }
    }
    // The target is for the documented fast way: a SearchIndex.
    let worst = run.index.map { percentile($0, 0.99) }.max() ?? 0
    worstSubstringP99 = max(worstSubstringP99, worst)
    loopP50s += run.index.flatMap { $0 }
    foundationP50s += run.foundation.flatMap { $0 }
}

for query in options.wordsQueries {
    log("typing \"\(query)\" (word prefixes, in order), \(options.reps) repetitions")
    let run = try await typeQuery(query, mode: .wordPrefixes(.inOrder), folder: folder, titles: titles,
                                  index: index, reps: options.reps, foundationReps: 0)
    print(table(run, title: "Word prefixes (`.wordPrefixes(.inOrder)`): \"\(query)\" typed one keystroke at a time (\(options.reps) repetitions); times in ms per keystroke over \(titles.count) titles", withFoundation: false))
    let worst = run.index.map { percentile($0, 0.99) }.max() ?? 0
    summaries.append("SearchIndex word-prefix \"\(query)\" worst per-keystroke p99 \(ms(worst)) ms")
}

print("Fold SearchIndex: `SearchIndex` (every title folded once into one flat buffer) and `Matcher(prefix, folder:).filter(index)`, the way to search many texts. "
    + "Foundation: `range(of: prefix, options: [.caseInsensitive, .diacriticInsensitive])` over the original titles. "
    + "p50/p99: nearest-rank percentiles over the repetitions of that keystroke (p99 of 30 samples is the slowest). Single thread. Fold \(folder.fingerprint).")
print("")
var summary = "Summary: Fold SearchIndex substring worst per-keystroke p99 \(ms(worstSubstringP99)) ms over \(titles.count) titles "
    + (worstSubstringP99 < 5 ? "(under the 5 ms target)" : "(OVER the 5 ms target)")
if !foundationP50s.isEmpty {
    summary += "; Foundation range(of:) p50 \(ms(percentile(foundationP50s, 0.5))) ms vs Fold SearchIndex \(ms(percentile(loopP50s, 0.5))) ms (\(ratio(percentile(foundationP50s, 0.5) / percentile(loopP50s, 0.5))) slower)"
}
summary += "; pre-folding \(ms(prefoldMS)) ms (\(String(format: "%.1f", Double(titleBytes) / 1e6 / (prefoldMS / 1e3))) MB/s)"
if !summaries.isEmpty { summary += "; " + summaries.joined(separator: "; ") }
print(summary + ".")
