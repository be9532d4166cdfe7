// bench-tokens: the tokenizer's throughput beside fold(utf8:) and ICU's word break iterator,
// the SearchIndex build time for many titles, and the growth of time on hostile input.
//
//   swift run -c release bench-tokens [--titles 1000000] [--reps 3] [--corpora DIR]
//
// BENCH_CORPUS=name runs one corpus; BENCH_TOKENS_ONLY=1 measures tokens, Tokenizer, making (the
// tokens' text, not iterated) and fold only; BENCH_PHASE=fold|tokens|tokenizer|making runs that
// one phase alone (for a profiler), BENCH_PHASE=chunks the Tokenizer on 64 KB chunks of lines
// (what per-text costs weigh) and BENCH_PHASE=floor the least a token costs its caller (tokens
// found beforehand, handed to the same closure); BENCH_INDEX_ONLY=1 the SearchIndex build only.
//
// Per corpus (Corpora/*.txt, line by line, best of --reps):
//   fold(utf8:)        Folder(.search).fold(utf8:) of each line
//   tokens(inUTF8:)    Folder(.search).tokens(inUTF8:) of each line, every token visited
//                      (its folded UTF-8 through withFoldedUTF8, and its original range)
//   Tokenizer          one Tokenizer(Folder(.search)) for all lines, forEachToken(inUTF8:) of
//                      each, the same visit of every token (checked to give as many tokens)
//   ICU words + fold   ICU's word break iterator on each line, then fold(utf8:) of each word
//                      (what a tokenizer built from ICU and Fold does)
// Then SearchIndex(titles) (titles made as bench-keystrokes makes them), beside the index as it
// was built before the tokenizer: fold(title), then ICU's word break iterator on the fold.
// Then time(4N)/time(N) of tokens(in:) for long runs of marks, ideographs, apostrophes, U+FDFA,
// ideographs each followed by a mark (every run of the windows stops), separators, and what goes
// through the rule iterator: unspaced Thai and Khmer runs (the dictionaries), ZWJ joins.
import BenchSupport
import Fold
import Foundation
import ICUPeers

struct Options {
    var titles = 1_000_000
    var reps = 3
    var corpora: String? = nil
}

func parseOptions() -> Options {
    var o = Options()
    var arguments = BenchArguments(tool: "bench-tokens", usage: """
        usage: bench-tokens [--titles N] [--reps N] [--corpora DIR]
          --titles N     titles for the SearchIndex build (default 1000000, at least 1)
          --reps N       timed repetitions, the best reported (default 3, at least 1)
          --corpora DIR  where english.txt, european.txt, mixed.txt are (default: Benchmarks/Corpora,
                         or $FOLD_CORPORA_DIR)

        """)
    while let flag = arguments.nextFlag() {
        switch flag {
        case "--titles": o.titles = arguments.count(of: flag)
        case "--reps": o.reps = arguments.count(of: flag)
        case "--corpora": o.corpora = arguments.value(of: flag)
        default: arguments.fail("unknown argument \(flag)")
        }
    }
    return o
}

func seconds(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    let d = clock.measure(body)
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

func best(_ reps: Int, _ body: () -> Void) -> Double {
    (0..<reps).map { _ in seconds(body) }.min()!
}

/// The words of a line by ICU's iterator (byte ranges).
func icuWords(_ line: UnsafeBufferPointer<UInt8>, _ bounds: inout [Int32]) -> Int {
    while true {
        let n = bounds.withUnsafeMutableBufferPointer {
            icupeer_word_segments(line.baseAddress, Int64(line.count), $0.baseAddress, Int64($0.count / 2))
        }
        precondition(n >= 0, "ICU error \(n)")
        if Int(n) * 2 <= bounds.count { return Int(n) }
        bounds = [Int32](repeating: 0, count: Int(n) * 2)
    }
}

/// Calls `body` for each token of `spans` (four numbers each) over `fold` (bench-tokens'
/// floor).
@inline(never)
func handOut(_ fold: UnsafeBufferPointer<UInt8>, _ spans: UnsafeBufferPointer<UInt32>, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void) {
    var k = 0
    while k < spans.count {
        let start = Int(spans[k]), end = Int(spans[k + 1])
        body(UnsafeBufferPointer(rebasing: fold[start..<end]), Int(spans[k + 2])..<Int(spans[k + 3]))
        k += 4
    }
}

struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// Titles of about 20 to 80 characters: runs of consecutive words of random lines of random
/// corpora (as bench-keystrokes makes them, without its exact length rules).
func makeTitles(count: Int, corpora: [Corpus]) -> [String] {
    var rng = SplitMix64(state: 1)
    var titles: [String] = []
    titles.reserveCapacity(count)
    while titles.count < count {
        let target = 20 + rng.below(61)
        let corpus = corpora[rng.below(corpora.count)]
        let line = String(decoding: corpus.bytes[corpus.lines[rng.below(corpus.lines.count)]], as: UTF8.self)
        let words = line.split(separator: " ")
        if words.isEmpty { continue }
        var title = ""
        for w in words[rng.below(words.count)...] {
            if title.count + w.count + 1 > 80 { break }
            title += title.isEmpty ? String(w) : " " + w
            if title.count >= target { break }
        }
        if title.count >= 20 { titles.append(title) }
    }
    return titles
}

let options = parseOptions()
let folder = Folder(.search)
print("bench-tokens: ICU \(String(cString: icupeer_icu_version())), profile search, best of \(options.reps)\n")
print("| corpus | MB | fold(utf8:) MB/s | tokens MB/s | Tokenizer MB/s | tokens/s (M), Tokenizer | tokens / fold | Tokenizer / fold | ICU words + fold MB/s | tokens / ICU | Tokenizer / ICU |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
var corpora: [Corpus] = []
for name in Corpus.names {
    let corpus = try Corpus.load(name, directory: options.corpora)
    corpora.append(corpus)
    if ProcessInfo.processInfo.environment["BENCH_INDEX_ONLY"] != nil { continue }
    if let only = ProcessInfo.processInfo.environment["BENCH_CORPUS"], only != name { continue }
    var sink = 0
    if let phase = ProcessInfo.processInfo.environment["BENCH_PHASE"] {
        // One phase alone, for a profiler: fold, tokens, or making (the tokens' text, unread),
        // each its own loop, as above.
        let time: Double
        switch phase {
        case "fold":
            time = best(options.reps) {
                for i in corpus.lines.indices { sink &+= (try? folder.fold(utf8: corpus.line(i)).count) ?? 0 }
            }
        case "tokenizer":
            var tokenizer = Tokenizer(folder)
            time = best(options.reps) {
                for i in corpus.lines.indices {
                    try? tokenizer.forEachToken(inUTF8: corpus.line(i)) { folded, original in
                        sink &+= Int(folded.first ?? 0) &+ folded.count &+ original.upperBound
                    }
                }
            }
        case "chunks":
            // The whole corpus in chunks of 64 KB (lines whole): what per-line costs weigh.
            var tokenizer = Tokenizer(folder)
            var chunks: [Range<Int>] = []
            var start = 0
            for i in corpus.lines.indices where corpus.lines[i].upperBound - start > 65536 || i == corpus.lines.count - 1 {
                chunks.append(start..<corpus.lines[i].upperBound)
                start = corpus.lines[i].upperBound
            }
            time = best(options.reps) {
                for c in chunks {
                    try? tokenizer.forEachToken(inUTF8: corpus.bytes[c]) { folded, original in
                        sink &+= Int(folded.first ?? 0) &+ folded.count &+ original.upperBound
                    }
                }
            }
        case "floor":
            // The least a token costs the caller: the tokens found beforehand (folded bytes and
            // ranges in arrays), each handed to the same closure through a call that is not
            // inlined, as a tokenizer's would be. No fold, no word finding.
            var folds: [UInt8] = [], spans: [UInt32] = [], lineEnds: [(Int, Int)] = []
            for i in corpus.lines.indices {
                if let tokens = try? folder.tokens(inUTF8: corpus.line(i)) {
                    let base = UInt32(folds.count)
                    folds.append(contentsOf: tokens.foldedUTF8)
                    for t in tokens {
                        spans.append(contentsOf: [base + UInt32(t.foldedUTF8Range.lowerBound), base + UInt32(t.foldedUTF8Range.upperBound),
                                                  UInt32(t.originalUTF8Range.lowerBound), UInt32(t.originalUTF8Range.upperBound)])
                    }
                }
                lineEnds.append((folds.count, spans.count))
            }
            time = folds.withUnsafeBufferPointer { f in
                spans.withUnsafeBufferPointer { sp in
                    best(options.reps) {
                        var s0 = 0
                        for (_, spanEnd) in lineEnds {
                            handOut(f, UnsafeBufferPointer(rebasing: sp[s0..<spanEnd])) { folded, original in
                                sink &+= Int(folded.first ?? 0) &+ folded.count &+ original.upperBound
                            }
                            s0 = spanEnd
                        }
                    }
                }
            }
        case "making":
            time = best(options.reps) {
                for i in corpus.lines.indices { sink &+= (try? folder.tokens(inUTF8: corpus.line(i)))?.withFoldedUTF8 { $0.count } ?? 0 }
            }
        default:
            time = best(options.reps) {
                for i in corpus.lines.indices {
                    guard let tokens = try? folder.tokens(inUTF8: corpus.line(i)) else { continue }
                    for t in tokens { sink &+= t.withFoldedUTF8 { Int($0.first ?? 0) &+ $0.count } &+ t.originalUTF8Range.upperBound }
                }
            }
        }
        print(String(format: "| %@ | %@ %.1f MB/s", name, phase, corpus.megabytes / time))
        if sink == 42 { print("") }
        continue
    }
    let foldTime = best(options.reps) {
        for i in corpus.lines.indices { sink &+= (try? folder.fold(utf8: corpus.line(i)).count) ?? 0 }
    }
    var tokenCount = 0
    let tokenTime = best(options.reps) {
        tokenCount = 0
        for i in corpus.lines.indices {
            guard let tokens = try? folder.tokens(inUTF8: corpus.line(i)) else { continue }
            for t in tokens {
                tokenCount += 1
                sink &+= t.withFoldedUTF8 { Int($0.first ?? 0) &+ $0.count } &+ t.originalUTF8Range.upperBound
            }
        }
    }
    var tokenizer = Tokenizer(folder)
    var tokenizerCount = 0
    let tokenizerTime = best(options.reps) {
        tokenizerCount = 0
        for i in corpus.lines.indices {
            try? tokenizer.forEachToken(inUTF8: corpus.line(i)) { folded, original in
                tokenizerCount += 1
                sink &+= Int(folded.first ?? 0) &+ folded.count &+ original.upperBound
            }
        }
    }
    precondition(tokenizerCount == tokenCount, "Tokenizer gave \(tokenizerCount) tokens, tokens(inUTF8:) \(tokenCount)")
    if ProcessInfo.processInfo.environment["BENCH_TOKENS_ONLY"] != nil {
        let makeTime = best(options.reps) {
            for i in corpus.lines.indices {
                guard let tokens = try? folder.tokens(inUTF8: corpus.line(i)) else { continue }
                sink &+= tokens.withFoldedUTF8 { $0.count }
            }
        }
        print(String(format: "| %@ | tokens %.1f MB/s | Tokenizer %.1f MB/s | making only %.1f MB/s | fold %.1f MB/s", name, corpus.megabytes / tokenTime, corpus.megabytes / tokenizerTime, corpus.megabytes / makeTime, corpus.megabytes / foldTime))
        continue
    }
    var bounds = [Int32](repeating: 0, count: 4096)
    let icuTime = best(options.reps) {
        for i in corpus.lines.indices {
            let line = corpus.line(i)
            let n = icuWords(line, &bounds)
            for k in 0..<n {
                let word = UnsafeBufferPointer(rebasing: line[Int(bounds[2 * k])..<Int(bounds[2 * k + 1])])
                sink &+= (try? folder.fold(utf8: word).count) ?? 0
            }
        }
    }
    let mb = corpus.megabytes
    print(String(format: "| %@ | %.1f | %.1f | %.1f | %.1f | %.2f | %.0f%% | %.0f%% | %.1f | %.1f× | %.1f× |", name, mb, mb / foldTime, mb / tokenTime,
                 mb / tokenizerTime, Double(tokenCount) / tokenizerTime / 1e6, foldTime / tokenTime * 100, foldTime / tokenizerTime * 100,
                 mb / icuTime, icuTime / tokenTime, icuTime / tokenizerTime))
    if sink == 42 { print("") }
}

if ProcessInfo.processInfo.environment["BENCH_TOKENS_ONLY"] != nil || ProcessInfo.processInfo.environment["BENCH_PHASE"] != nil { exit(0) }
let titles = makeTitles(count: options.titles, corpora: corpora)
let titleMB = Double(titles.reduce(0) { $0 + $1.utf8.count }) / 1e6
var indexCount = 0
let items = titles.enumerated().map { (id: $0, text: $1) }
let indexTime = best(options.reps) {
    let index = SearchIndex(items, folder: folder)
    indexCount = index.count
}
if ProcessInfo.processInfo.environment["BENCH_INDEX_ONLY"] != nil {
    print(String(format: "SearchIndex of %d titles (%.1f MB): %.3f s (%.1f MB/s)", indexCount, titleMB, indexTime, titleMB / indexTime))
    exit(0)
}
var bounds = [Int32](repeating: 0, count: 1024)
var starts = 0
let oldIndexTime = best(options.reps) {
    // The index as built before the tokenizer: fold each title, then ICU's iterator on the fold.
    var bytes: [UInt8] = [], wordStarts: [Int32] = []
    for title in titles {
        var key = folder.fold(title)
        key.withUTF8 { k in
            let base = bytes.count
            bytes.append(contentsOf: k)
            let n = icuWords(k, &bounds)
            for w in 0..<n { wordStarts.append(Int32(base + Int(bounds[2 * w]))) }
        }
    }
    starts = wordStarts.count
}
print(String(format: "\nSearchIndex of %d titles (%.1f MB): %.3f s (%.1f MB/s); fold + ICU's iterator (the index before): %.3f s; %.1f× faster",
             indexCount, titleMB, indexTime, titleMB / indexTime, oldIndexTime, oldIndexTime / indexTime))

print("\n| hostile input | N | time(N) ms | time(4N) ms | ratio | Tokenizer time(N) ms | time(4N) ms | ratio |")
print("|---|---|---|---|---|---|---|---|")
let hostile: [(String, String)] = [("marks", "a" + String(repeating: "\u{301}\u{323}", count: 1)), ("ideographs", "東"), ("apostrophes", "'"), ("U+FDFA", "\u{FDFA}"), ("a'b", "a'"), ("a α (restarts)", "a α "),
                                   ("東 + mark (runs stop)", "東\u{93E}"), ("、 (separators)", "、"),
                                   // The rule iterator's path (Fold's port of ICU's, with its dictionaries): one Thai
                                   // run without a space, Khmer the same, and ZWJ joins.
                                   ("Thai run (dictionary)", "ภาษาไทย"), ("Khmer run (dictionary)", "ភាសាខ្មែរ"), ("a + ZWJ (rule iterator)", "a\u{200D}")]
var hostileTokenizer = Tokenizer(folder)
for (name, unit) in hostile {
    let n = 50_000
    func text(_ count: Int) -> String {
        name == "marks" ? "a" + String(repeating: "\u{301}\u{323}", count: count) : String(repeating: unit, count: count)
    }
    func run(_ count: Int) -> Double {
        let text = text(count)
        var c = 0
        return best(options.reps) { c = 0; for _ in folder.tokens(in: text) { c += 1 } }
    }
    func runTokenizer(_ count: Int) -> Double {
        let bytes = Array(text(count).utf8)
        var c = 0
        return best(options.reps) { c = 0; try? hostileTokenizer.forEachToken(inUTF8: bytes) { _, _ in c += 1 } }
    }
    let t1 = run(n), t4 = run(4 * n), k1 = runTokenizer(n), k4 = runTokenizer(4 * n)
    print(String(format: "| %@ | %d | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f |", name, n, t1 * 1000, t4 * 1000, t4 / t1, k1 * 1000, k4 * 1000, k4 / k1))
}
