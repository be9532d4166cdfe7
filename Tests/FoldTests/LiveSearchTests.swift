@testable import Fold
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A clock that moves only when a test advances it.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let lock = Lock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Int: (Instant, CheckedContinuation<Void, Error>)] = [:]
    private var cancelled: Set<Int> = []
    private var nextID = 0

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }
    var sleeperCount: Int { lock.withLock { sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = lock.withLock { nextID += 1; return nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
                lock.withLock {
                    if cancelled.remove(id) != nil { c.resume(throwing: CancellationError()) }
                    else if deadline <= current { c.resume() }
                    else { sleepers[id] = (deadline, c) }
                }
            }
        } onCancel: {
            lock.withLock {
                if let (_, c) = sleepers.removeValue(forKey: id) { c.resume(throwing: CancellationError()) }
                else { cancelled.insert(id) }
            }
        }
    }

    func advance(by d: Duration) {
        lock.withLock {
            current = current.advanced(by: d)
            for (id, (deadline, c)) in sleepers where deadline <= current {
                sleepers.removeValue(forKey: id)
                c.resume()
            }
        }
    }
}

/// A source whose searches are scripted: each records its query, and waits (on a clock) for as
/// long as the test says before answering with one match named after the query.
final class ScriptedSource: LiveSearchSource, @unchecked Sendable {
    private let lock = Lock()
    private var started: [String] = []
    private var finished: [String] = []
    private var cancelledQueries: [String] = []
    let clock: any Clock<Duration>
    let duration: @Sendable (String) -> Duration

    init(clock: any Clock<Duration>, duration: @escaping @Sendable (String) -> Duration = { _ in .zero }) {
        self.clock = clock
        self.duration = duration
    }

    var startedQueries: [String] { lock.withLock { started } }
    var cancelledCount: Int { lock.withLock { cancelledQueries.count } }

    func search(_ query: String, limit: Int) async throws -> LiveSearchResults<String> {
        lock.withLock { started.append(query) }
        let d = duration(query)
        do {
            if d > .zero { try await clock.sleep(for: d) }
            try Task.checkCancellation()
        } catch {
            lock.withLock { cancelledQueries.append(query) }
            throw error
        }
        lock.withLock { finished.append(query) }
        return LiveSearchResults(query: query, matches: [.init(id: query, text: query, ranges: [])], totalCount: 1)
    }

    static func sleep<C: Clock>(_ clock: C, _ d: Duration) async throws where C.Duration == Duration {
        try await clock.sleep(for: d)
    }
}

/// Collects a live search's updates as they arrive.
final class UpdateLog<ID: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var items: [LiveSearchUpdate<ID>] = []
    var updates: [LiveSearchUpdate<ID>] { lock.withLock { items } }
    func append(_ u: LiveSearchUpdate<ID>) { lock.withLock { items.append(u) } }

    /// The queries of the delivered results, in order.
    var resultQueries: [String] {
        updates.compactMap { if case .results(let r) = $0 { return r.query } else { return nil } }
    }
    var searchingCount: Int { updates.filter { if case .searching = $0 { return true } else { return false } }.count }
    var idleCount: Int { updates.filter { if case .idle = $0 { return true } else { return false } }.count }
}

/// Waits (in real time, up to two seconds) until `condition` holds.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<2_000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// Lets the tasks of a live search run (real time) without moving the manual clock.
func settle() async { try? await Task.sleep(for: .milliseconds(30)) }

@Suite struct LiveSearchTests {
    func make(_ source: ScriptedSource, clock: ManualClock, quiet: QuietPeriod = .default) -> (LiveSearch<ScriptedSource>, UpdateLog<String>) {
        let live = LiveSearch(source, quietPeriod: quiet, stallDelay: .milliseconds(200), clock: clock)
        let log = UpdateLog<String>()
        Task.detached { for await u in live.updates { log.append(u) } }
        return (live, log)
    }

    @Test func quietPeriodDependsOnLength() {
        #expect(QuietPeriod.default.delay(forLength: 0) == .zero)
        #expect(QuietPeriod.default.delay(forLength: 1) == .milliseconds(250))
        #expect(QuietPeriod.default.delay(forLength: 2) == .milliseconds(250))
        #expect(QuietPeriod.default.delay(forLength: 3) == .milliseconds(50))
        #expect(QuietPeriod.default.delay(forLength: 40) == .milliseconds(50))
        #expect(QuietPeriod.none.delay(forLength: 5) == .zero)
    }

    @Test func aShortQueryWaitsForTheQuietPeriodATrailingEdge() async {
        let clock = ManualClock()
        let source = ScriptedSource(clock: clock)
        let (live, log) = make(source, clock: clock)
        live.submit("g")
        await settle()
        clock.advance(by: .milliseconds(200))
        await settle()
        #expect(source.startedQueries.isEmpty)
        live.submit("gr")           // restarts the wait
        await settle()
        clock.advance(by: .milliseconds(200))
        await settle()
        #expect(source.startedQueries.isEmpty)
        clock.advance(by: .milliseconds(50))
        #expect(await eventually { log.resultQueries == ["gr"] })
        #expect(source.startedQueries == ["gr"])
        live.finish()
    }

    @Test func aLongQueryWaitsLessAndSearchNowDoesNotWait() async {
        let clock = ManualClock()
        let source = ScriptedSource(clock: clock)
        let (live, log) = make(source, clock: clock)
        live.submit("green")
        await settle()
        clock.advance(by: .milliseconds(49))
        await settle()
        #expect(source.startedQueries.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { log.resultQueries == ["green"] })
        live.searchNow("g")         // no quiet period
        #expect(await eventually { log.resultQueries == ["green", "g"] })
        live.finish()
    }

    @Test func anEmptyQueryClearsAtOnce() async {
        let clock = ManualClock()
        let source = ScriptedSource(clock: clock)
        let (live, log) = make(source, clock: clock)
        live.submit("gre")
        live.submit("")
        #expect(await eventually { log.resultQueries == [""] })
        clock.advance(by: .seconds(1))
        await settle()
        #expect(log.resultQueries == [""])
        #expect(source.startedQueries.isEmpty)
        live.finish()
    }

    @Test func theSpinnerShowsOnlyWhenASearchStallsAndNeverStaysOn() async {
        let clock = ManualClock()
        let source = ScriptedSource(clock: clock) { $0 == "slow" ? .seconds(5) : .milliseconds(100) }
        let (live, log) = make(source, clock: clock, quiet: .none)
        // A fast search: no spinner.
        live.submit("fast")
        #expect(await eventually { source.startedQueries == ["fast"] && clock.sleeperCount == 2 })
        clock.advance(by: .milliseconds(100))
        #expect(await eventually { log.resultQueries == ["fast"] })
        clock.advance(by: .milliseconds(300))
        await settle()
        #expect(log.searchingCount == 0)
        // A slow one: the spinner after 200 ms, not before.
        live.submit("slow")
        #expect(await eventually { source.startedQueries.last == "slow" && clock.sleeperCount == 2 })
        clock.advance(by: .milliseconds(199))
        await settle()
        #expect(log.searchingCount == 0)
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { log.searchingCount == 1 })
        // Superseded while the spinner shows: idle at once, and the slow search is cancelled.
        live.submit("next")
        #expect(await eventually { log.idleCount == 1 && source.cancelledCount == 1 })
        #expect(await eventually { clock.sleeperCount == 2 })
        clock.advance(by: .milliseconds(100))
        #expect(await eventually { log.resultQueries == ["fast", "next"] })
        #expect(log.searchingCount == 1)
        live.finish()
    }

    /// `submit` wakes the coordinator only when it must act sooner than it would on its own:
    /// not while it waits toward an earlier deadline, yes when the new deadline is earlier (a
    /// third character shortens the quiet period) or when it is parked.
    @Test func submitWakesTheCoordinatorOnlyWhenItMustActSooner() async {
        let clock = ManualClock()
        let source = ScriptedSource(clock: clock)
        let (live, log) = make(source, clock: clock)
        #expect(await eventually { live.core.isParked })
        live.submit("g")                       // parked: woken, waits until 250 ms
        #expect(await eventually { clock.sleeperCount == 1 })
        #expect(live.core.wakes == 1)
        clock.advance(by: .milliseconds(100))
        live.submit("gr")                      // deadline 350 ms, after 250: no wake
        await settle()
        #expect(live.core.wakes == 1)
        live.submit("gre")                     // deadline 150 ms, before 250: woken
        #expect(await eventually { live.core.wakes == 2 && clock.sleeperCount == 1 })
        clock.advance(by: .milliseconds(49))
        await settle()
        #expect(source.startedQueries.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { log.resultQueries == ["gre"] })
        #expect(source.startedQueries == ["gre"])
        live.finish()
    }

    /// While someone types, the coordinator thread looks for work by itself every millisecond:
    /// keystrokes cost their caller no system call (no signal), and every one is answered.
    @Test func aTypingBurstSignalsTheCoordinatorThreadNever() async {
        // The thread polls for two seconds after its last work; a machine busy with other
        // tests can leave this one waiting longer than that between keystrokes, so the span is
        // made long here (the default comes back at the end).
        CoordinatorThread.shared.setActiveSpan(.seconds(600))
        defer { CoordinatorThread.shared.setActiveSpan(.seconds(2)) }
        let source = ScriptedSource(clock: ContinuousClock())
        let live = LiveSearch(source, quietPeriod: .none)
        let log = UpdateLog<String>()
        let consumer = Task.detached { for await u in live.updates { log.append(u) } }
        live.submit("warm")
        #expect(await eventually { log.resultQueries == ["warm"] })
        let before = CoordinatorThread.shared.signalCount
        for k in 0..<20 {
            live.submit("q\(k)")
            try? await Task.sleep(for: .milliseconds(5))
        }
        #expect(await eventually { log.resultQueries.last == "q19" })
        #expect(CoordinatorThread.shared.signalCount == before, "\(CoordinatorThread.shared.signalCount - before) signals")
        live.finish()
        await consumer.value
    }

    /// Searches run on the shared pool, never on the coordinators' thread.
    @Test func searchesNeverRunOnTheCoordinatorThread() async {
        final class Recorder: LiveSearchSource, @unchecked Sendable {
            let lock = Lock()
            var onCoordinator: [Bool] = []
            func search(_ query: String, limit: Int) async throws -> LiveSearchResults<Int> {
                lock.withLock { onCoordinator.append(CoordinatorThread.isCurrent) }
                return LiveSearchResults(query: query, matches: [], totalCount: 0)
            }
        }
        let recorder = Recorder()
        let live = LiveSearch(recorder, quietPeriod: .none)
        for q in ["a", "ab", "abc"] {
            live.searchNow(q)
            try? await Task.sleep(for: .milliseconds(5))
        }
        #expect(await eventually { recorder.lock.withLock { recorder.onCoordinator.count } >= 1 })
        #expect(recorder.lock.withLock { recorder.onCoordinator }.allSatisfy { !$0 })
        live.finish()
    }

    /// Finished live searches, and dropped ones, leave no coordinator running.
    @Test func finishedOrDroppedLiveSearchesLeaveNothingRunning() async {
        var cores: [LiveSearchCore<ScriptedSource>] = []
        for k in 0..<200 {
            let live = LiveSearch(ScriptedSource(clock: ContinuousClock()), quietPeriod: .none)
            live.submit("q\(k)")
            cores.append(live.core)           // the core only: it does not keep the live search
            if k % 2 == 0 { live.finish() }     // the others are dropped here
        }
        #expect(await eventually { cores.allSatisfy(\.coordinatorEnded) },
                "\(cores.filter { !$0.coordinatorEnded }.count) coordinators still run")
    }

    /// Randomized typing: gaps of 0 to 300 ms and searches of 0 to 300 ms (scaled down 100
    /// times, on the real clock), thousands of traces. Results arrive in submission order, never
    /// for a query older than one already answered, and the last query is always answered.
    @Test func randomTypingTracesNeverDeliverStaleResults() async {
        var rng = seededGenerator(0x11FE)
        var failures: [String] = []
        for trace in 0..<1_000 {
            let keystrokes = Int.random(in: 1...6, using: &rng)
            let gaps = (0..<keystrokes).map { _ in Duration.microseconds(Int64.random(in: 0...3_000, using: &rng)) }
            let durations = (0..<keystrokes).map { _ in Duration.microseconds(Int64.random(in: 0...3_000, using: &rng)) }
            let queries = (0..<keystrokes).map { "q\(trace)-\($0)" }
            let table = Dictionary(uniqueKeysWithValues: zip(queries, durations))
            let source = ScriptedSource(clock: ContinuousClock()) { table[$0] ?? .zero }
            let live = LiveSearch(source, quietPeriod: QuietPeriod(delays: [.microseconds(2_500), .microseconds(500)]),
                                  stallDelay: .milliseconds(2), clock: ContinuousClock())
            let log = UpdateLog<String>()
            let consumer = Task.detached { for await u in live.updates { log.append(u) } }
            for (q, gap) in zip(queries, gaps) {
                live.submit(q)
                try? await Task.sleep(for: gap)
            }
            let last = queries.last!
            if !(await eventually { log.resultQueries.last == last }) { failures.append("trace \(trace): \(last) never answered") }
            try? await Task.sleep(for: .milliseconds(4))
            live.finish()
            await consumer.value
            let indices = log.resultQueries.map { q in queries.firstIndex(of: q)! }
            if indices != indices.sorted() || Set(indices).count != indices.count { failures.append("trace \(trace): out of order \(indices)") }
            if indices.last != queries.count - 1 { failures.append("trace \(trace): last delivered \(String(describing: indices.last))") }
            // The spinner is never left on: every `searching` is followed by results or idle.
            var spinning = false
            for u in log.updates {
                switch u {
                case .searching: spinning = true
                case .idle, .results, .failed: spinning = false
                }
            }
            if spinning { failures.append("trace \(trace): spinner left on") }
        }
        expectNoFailures(failures, "traces")
    }

    /// The index source: parallel shards give the same keys as one scan, results carry the
    /// total and the ranges to highlight, and a superseded search over a large index stops.
    @Test func searchIndexSourceShardsAgreeAndHighlight() async throws {
        let folder = Folder()
        let words = ["Crème brûlée", "Łódź", "green doors", "Smørrebrød", "ÉCOLE normale", "lodz"]
        let items = (0..<100_000).map { (id: $0, text: words[$0 % words.count] + " \($0)") }
        let index = SearchIndex(items, folder: folder)
        for mode in [Matcher.Mode.substring, .wordPrefixes(.inOrder), .wordPrefixes(.anyOrder)] {
            for query in ["lodz", "cre", "doors green", "e", "normale ec"] {
                let one = try await SearchIndexSource(index, mode: mode, shards: 1).search(query, limit: 3)
                let four = try await SearchIndexSource(index, mode: mode, shards: 4).search(query, limit: 3)
                let all = try await Matcher(query, folder: folder, mode: mode).filter(index)
                #expect(one.totalCount == all.count && four.totalCount == all.count, "\(query) \(mode)")
                #expect(one.ids == Array(all.prefix(3)) && four.ids == one.ids, "\(query) \(mode)")
            }
        }
        let r = try await SearchIndexSource(index).search("lodz", limit: 2)
        #expect(r.matches.map { String($0.text[$0.ranges[0]]) } == ["Łódź", "lodz"])
        #expect(r.totalCount == items.filter { $0.id % 6 == 1 || $0.id % 6 == 5 }.count)
    }

    @Test func buildingReportsGrowingProgressAndCancels() async throws {
        let folder = Folder()
        let items = (0..<50_000).map { (id: $0, text: "title \($0) Crème") }
        let fractions = UpdateLog<Int>()
        final class Fractions: @unchecked Sendable { let lock = Lock(); var values: [Double] = [] }
        let seen = Fractions()
        let index = try await SearchIndex.build(items, folder: folder) { f in seen.lock.withLock { seen.values.append(f) } }
        _ = fractions
        #expect(index.count == items.count)
        #expect(seen.values.last == 1)
        #expect(seen.values == seen.values.sorted() && Set(seen.values).count == seen.values.count)
        #expect(seen.values.dropLast().allSatisfy { $0 > 0 && $0 < 1 })
        #expect(seen.values.count >= 10)
        // Cancelled: stops, throws, and never returns a partial index.
        let task = Task.detached { try await SearchIndex.build(items + items + items, folder: folder) }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        // Appending: what has loaded can be searched.
        var growing = SearchIndex<Int>(folder: folder)
        growing.append(contentsOf: items.prefix(10))
        #expect(try await Matcher("creme", folder: folder).filter(growing).count == 10)
        growing.append(contentsOf: items.dropFirst(10).prefix(5))
        #expect(try await Matcher("creme", folder: folder).filter(growing) == Array(0..<15))
    }
}
