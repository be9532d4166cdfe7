// bench-live: live search over 100,000 and 1,000,000 titles, the numbers of issue 14.
//
//   swift build -c release --product bench-live && .build/release/bench-live [--reps 10] [--seed 1]
//
// Titles as in bench-keystrokes (20 to 80 characters from the three corpora). For each size:
//   build         `SearchIndex.build` (background build with progress), seconds
//   keystroke     `SearchIndexSource.search(prefix, limit: 50)` for every prefix of the queries,
//                 typed `--reps` times: p50/p99 per keystroke, substring and word-prefix modes,
//                 sharded over every core (first letter included)
//   last key      time from the last keystroke's `submit` to its delivered results through a
//                 `LiveSearch` with QuietPeriod.none (typing at 30 ms per key)
//   submit        `LiveSearch.submit` wall time p99 while searches run on every core
//   cancel        a one-letter search started, cancelled after 1 ms: time until the task ends
import BenchSupport
import Fold
import Foundation

var reps = 10
var seed: UInt64 = 1
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--reps": reps = Int(args.popFirst() ?? "") ?? reps
    case "--seed": seed = UInt64(args.popFirst() ?? "") ?? seed
    default: FileHandle.standardError.write(Data("usage: bench-live [--reps N] [--seed S]\n".utf8)); exit(2)
    }
}

let clock = ContinuousClock()
func ms(_ d: Duration) -> Double { milliseconds(d) }
func fmt(_ v: Double) -> String { v < 1 ? String(format: "%.3f ms", v) : String(format: "%.1f ms", v) }

let corpora = try Corpus.names.map { try Corpus.load($0) }
let folder = try Folder(.search)
let substringQueries = ["relationship", "eichhornchen", "lodz"]
let wordQueries = ["creme brulee", "green do"]
print("### Live search (\(ProcessInfo.processInfo.activeProcessorCount) cores, \(reps) repetitions of each typed query)\n")
print("| titles | build | substring p50 | substring p99 | word prefixes p50 | word prefixes p99 | last key → results p99 | submit p99 | cancel p99 |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

for size in [100_000, 1_000_000] {
    log("titles: \(size)")
    let titles = makeTitles(count: size, seed: seed, corpora: corpora)
    let items = titles.enumerated().map { (id: $0, text: $1) }
    let t0 = clock.now
    let index = try await SearchIndex.build(items, folder: folder)
    let build = clock.now - t0

    func keystrokes(_ queries: [String], _ mode: Matcher.Mode) async throws -> [Double] {
        let source = SearchIndexSource(index, mode: mode)
        var times: [Double] = []
        var slowest: [String: Double] = [:]
        for _ in 0..<reps {
            for q in queries {
                for n in 1...q.count {
                    let prefix = String(q.prefix(n))
                    let t = clock.now
                    _ = try await source.search(prefix, limit: 50)
                    times.append(ms(clock.now - t))
                    slowest[prefix] = max(slowest[prefix] ?? 0, times.last!)
                }
            }
        }
        let worst = slowest.sorted { $0.value > $1.value }.prefix(3).map { "\"\($0.key)\" \(fmt($0.value))" }
        log("\(size) titles, \(mode): slowest keystrokes \(worst.joined(separator: ", "))")
        return times
    }
    let sub = try await keystrokes(substringQueries, .substring)
    let words = try await keystrokes(wordQueries, .wordPrefixes(.inOrder))

    // Typing through a LiveSearch: submit time and last-key latency.
    var submitTimes: [Double] = []
    var lastKey: [Double] = []
    for r in 0..<reps {
        let live = LiveSearch(SearchIndexSource(index), quietPeriod: .none)
        let query = substringQueries[r % substringQueries.count]
        let consumer = Task.detached { () -> ContinuousClock.Instant? in
            for await u in live.updates { if case .results(let res) = u, res.query == query { return clock.now } }
            return nil
        }
        var lastSubmit = clock.now
        for n in 1...query.count {
            let t = clock.now
            live.submit(String(query.prefix(n)))
            submitTimes.append(ms(clock.now - t))
            lastSubmit = t
            if n < query.count { try await Task.sleep(for: .milliseconds(30)) }
        }
        if let delivered = await consumer.value { lastKey.append(ms(delivered - lastSubmit)) }
        live.finish()
    }

    // submit with nothing searching (a quiet period longer than the gaps between keys): the
    // call's own cost, beside the one above measured while both cores search.
    var idleSubmits: [Double] = []
    for r in 0..<reps {
        let live = LiveSearch(SearchIndexSource(index), quietPeriod: QuietPeriod(delays: [.seconds(10)]))
        let query = substringQueries[r % substringQueries.count]
        for n in 1...query.count {
            let t = clock.now
            live.submit(String(query.prefix(n)))
            idleSubmits.append(ms(clock.now - t))
            try await Task.sleep(for: .milliseconds(5))
        }
        live.finish()
    }
    log("\(size) titles: submit p99 with no search running \(String(format: "%.1f µs", percentile(idleSubmits, 0.99) * 1000)), p50 \(String(format: "%.1f µs", percentile(idleSubmits, 0.5) * 1000))")

    // Cancellation latency: a one-letter search over every key, cancelled after 1 ms.
    var cancels: [Double] = []
    for _ in 0..<reps {
        let source = SearchIndexSource(index)
        let task = Task.detached { _ = try? await source.search("e", limit: 50) }
        try await Task.sleep(for: .milliseconds(1))
        let t = clock.now
        task.cancel()
        await task.value
        cancels.append(ms(clock.now - t))
    }
    print("| \(size) | \(fmt(ms(build))) | \(fmt(percentile(sub, 0.5))) | \(fmt(percentile(sub, 0.99))) | \(fmt(percentile(words, 0.5))) | \(fmt(percentile(words, 0.99))) | \(fmt(percentile(lastKey, 0.99))) | \(String(format: "%.1f µs", percentile(submitTimes, 0.99) * 1000)) | \(fmt(percentile(cancels, 0.99))) |")
}
print("")
print("Substring queries typed: \(substringQueries.joined(separator: ", ")); word-prefix queries: \(wordQueries.joined(separator: ", ")). Keystroke times include building the Matcher and materializing the first 50 matches with their highlight ranges. Last key → results: LiveSearch with QuietPeriod.none, one key per 30 ms.")
