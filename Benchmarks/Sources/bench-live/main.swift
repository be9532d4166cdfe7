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
//   submit        `LiveSearch.submit` wall time p99 while searches run on every core (a prefix
//                 every 2 ms, 1,500 submits); the second table has p50/p99/max of that case, of
//                 submits with nothing searching, of submits during a quiet period, of the 30 ms
//                 typing above, and of the first keystroke after 2 s idle (the thread parked)
//   cancel        a one-letter search started, cancelled after 1 ms: time until the task ends
import BenchSupport
import Fold
import Foundation

var reps = 10
var seed: UInt64 = 1
var arguments = BenchArguments(tool: "bench-live", usage: "usage: bench-live [--reps N] [--seed S]\n")
while let flag = arguments.nextFlag() {
    switch flag {
    case "--reps": reps = arguments.count(of: flag)
    case "--seed": seed = arguments.unsigned(of: flag)
    default: arguments.fail("unknown argument \(flag)")
    }
}

let clock = ContinuousClock()
func ms(_ d: Duration) -> Double { milliseconds(d) }
func fmt(_ v: Double) -> String { v < 1 ? String(format: "%.3f ms", v) : String(format: "%.1f ms", v) }

let corpora = try Corpus.names.map { try Corpus.load($0) }
let folder = Folder(.search)
let substringQueries = ["relationship", "eichhornchen", "lodz"]
let wordQueries = ["creme brulee", "green do"]
print("### Live search (\(ProcessInfo.processInfo.activeProcessorCount) cores, \(reps) repetitions of each typed query)\n")
print("| titles | build | substring p50 | substring p99 | word prefixes p50 | word prefixes p99 | last key → results p99 | submit p99 | cancel p99 |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

var submitRows: [String] = []

/// A source that counts the searches running.
final class CountingSource: LiveSearchSource, @unchecked Sendable {
    let inner: SearchIndexSource<Int>
    private let lock = NSLock()
    private var running = 0
    init(_ inner: SearchIndexSource<Int>) { self.inner = inner }
    var active: Int { lock.lock(); defer { lock.unlock() }; return running }
    func search(_ query: String, limit: Int) async throws -> LiveSearchResults<Int> {
        lock.withLock { running += 1 }
        defer { lock.withLock { running -= 1 } }
        return try await inner.search(query, limit: limit)
    }
}

/// `count` submits of prefixes of the queries, `gap` apart, to a live search over `index`:
/// each one's wall time (ms) and how many were made while a search ran.
func submits(_ index: SearchIndex<Int>, quiet: QuietPeriod, gap: Duration, count: Int, settle: Bool = false) async throws
    -> (times: [Double], inFlight: Int) {
    let source = CountingSource(SearchIndexSource(index))
    let live = LiveSearch(source, quietPeriod: quiet)
    let delivered = Delivered()
    let consumer = Task.detached {
        for await u in live.updates {
            switch u {
            case .results, .failed: delivered.add()
            case .searching, .idle: break
            }
        }
    }
    let prefixes = substringQueries.flatMap { q in (1...q.count).map { String(q.prefix($0)) } }
    var times: [Double] = [], inFlight = 0
    times.reserveCapacity(count)
    for k in 0..<count {
        if settle {
            // Nothing searching: the one before answered.
            while delivered.count < k { try await Task.sleep(for: .microseconds(200)) }
        }
        if source.active > 0 { inFlight += 1 }
        let query = prefixes[k % prefixes.count] + (k % 2 == 0 ? "" : " ")
        let t = clock.now
        live.submit(query)
        times.append(ms(clock.now - t))
        try await Task.sleep(for: gap)
    }
    live.finish()
    await consumer.value
    return (times, inFlight)
}

/// Results delivered so far.
final class Delivered: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    var count: Int { lock.lock(); defer { lock.unlock() }; return n }
    func add() { lock.lock(); n += 1; lock.unlock() }
}

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

    // Typing through a LiveSearch at 30 ms a key: last-key latency (and submit time).
    var typingSubmits: [Double] = []
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
            typingSubmits.append(ms(clock.now - t))
            lastSubmit = t
            if n < query.count { try await Task.sleep(for: .milliseconds(30)) }
        }
        if let delivered = await consumer.value { lastKey.append(ms(delivered - lastSubmit)) }
        live.finish()
    }

    // submit while searches run on every core: a prefix every 2 ms (a search takes 3 to 13
    // ms at 1,000,000 titles), so most submits find a search running. `inFlight` counts them.
    let busy = try await submits(index, quiet: .none, gap: .milliseconds(2), count: 1_500)
    // submit with nothing searching (5 ms between keys, quiet period none): the coordinator
    // is parked on its task, its thread polling (work in the last 2 s): no signal.
    let idle = try await submits(index, quiet: .none, gap: .milliseconds(5), count: 1_000, settle: true)
    // submit while the coordinator waits out a quiet period toward an earlier deadline: no wake.
    let quiet = try await submits(index, quiet: QuietPeriod(delays: [.seconds(10)]), gap: .milliseconds(2), count: 1_000)
    // The first keystroke after the coordinator thread went quiet (2 s without work): it is
    // parked, and this submit signals it (10 samples, at the first size only).
    var afterIdle: [Double] = []
    if size == 100_000 {
        let live = LiveSearch(SearchIndexSource(index), quietPeriod: .none)
        for k in 0..<10 {
            try await Task.sleep(for: .milliseconds(2_200))
            let t = clock.now
            live.submit(k % 2 == 0 ? "lodz" : "lod")
            afterIdle.append(ms(clock.now - t))
        }
        live.finish()
    }
    var cases = [("while searching", busy), ("coordinator awake", idle), ("in a quiet period", quiet),
                 ("typing at 30 ms", (times: typingSubmits, inFlight: 0))]
    if !afterIdle.isEmpty { cases.append(("first after 2 s idle", (times: afterIdle, inFlight: 0))) }
    for (name, r) in cases {
        let us = { (p: Double) in String(format: "%.1f", percentile(r.times, p) * 1000) }
        submitRows.append("| \(size) | \(name) | \(r.times.count) | \(name == "while searching" ? "\(r.inFlight)" : "-") | \(us(0.5)) | \(us(0.99)) | \(String(format: "%.1f", (r.times.max() ?? 0) * 1000)) |")
    }
    let submitTimes = busy.times

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

print("\n### submit (µs)\n")
print("| titles | case | samples | submits with a search in flight | p50 | p99 | max |")
print("|---:|---|---:|---:|---:|---:|---:|")
for row in submitRows { print(row) }
