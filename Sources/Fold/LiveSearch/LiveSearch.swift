/// Search as the user types: one query per keystroke in, the newest query's results out, and
/// nothing that makes typing wait or shows a stale result.
///
/// ``submit(_:)`` returns at once, from any actor: it records the query under a lock and, only
/// when something must happen sooner than planned, wakes the live search's coordinator (one
/// semaphore signal to a thread that all live searches share: no task is made and no search is
/// cancelled on the caller's thread). The coordinator waits out the ``QuietPeriod``, cancels
/// what a newer query made stale, and starts each search off the caller's actor, on the shared
/// pool. ``updates`` delivers, to one consumer, only what still answers the newest query:
///
/// - latest only: an update is delivered only if its query is still the newest submitted at the
///   moment of delivery (the check and the submission share one lock), so updates arrive in
///   submission order and a stale result never overwrites a fresh one;
/// - ``LiveSearchUpdate/searching(_:)`` only when a search runs longer than the stall delay, so
///   fast searches never flash a spinner, and ``LiveSearchUpdate/idle`` when a search that showed
///   it is superseded, so the spinner is never left on;
/// - ``searchNow(_:)`` skips the quiet period, for a Search button or the Return key.
///
/// ```swift
/// let live = LiveSearch(SearchIndexSource(index, mode: .wordPrefixes(.inOrder)))
/// Task { @MainActor in
///     for await update in live.updates {
///         switch update {
///         case .results(let r): show(r.matches, total: r.totalCount)
///         case .searching: spinner.start()
///         case .idle: spinner.stop()
///         case .failed(_, let message): showError(message)
///         }
///     }
/// }
/// live.submit("green do")   // from the text field's change handler; returns at once
/// ```
public final class LiveSearch<Source: LiveSearchSource>: Sendable {
    /// What ``updates`` delivers: results, the spinner's start and stop, failures.
    public typealias Update = LiveSearchUpdate<Source.ID>

    /// The updates, for one consumer. It ends after ``finish()``.
    public let updates: AsyncStream<Update>

    /// What each query is searched in.
    public let source: Source
    /// How long to wait after a keystroke, by the query's length, before searching.
    public let quietPeriod: QuietPeriod
    /// How long a search runs before ``LiveSearchUpdate/searching(_:)`` is delivered.
    public let stallDelay: Duration
    /// How many matches each result materializes (with ranges to highlight).
    public let limit: Int

    /// The state and the coordinator (which holds no reference to this object: dropping the
    /// live search ends it).
    let core: LiveSearchCore<Source>

    /// A live search over `source`.
    ///
    /// ```swift
    /// let live = LiveSearch(source, quietPeriod: .default, stallDelay: .milliseconds(200), limit: 50)
    /// ```
    public init(_ source: Source, quietPeriod: QuietPeriod = .default, stallDelay: Duration = .milliseconds(200),
                limit: Int = 50, clock: any Clock<Duration> = ContinuousClock()) {
        self.source = source
        self.quietPeriod = quietPeriod
        self.stallDelay = stallDelay
        self.limit = limit
        let (updates, continuation) = AsyncStream.makeStream(of: Update.self, bufferingPolicy: .unbounded)
        self.updates = updates
        core = LiveSearchCore(source: source, stallDelay: stallDelay, limit: limit, clock: clock, continuation: continuation)
        core.startCoordinator()
    }

    deinit {
        core.finish()
    }

    /// Records a keystroke's query and returns at once: the search starts after the quiet
    /// period for its length, unless another query comes first. An empty query delivers empty
    /// results at once.
    ///
    /// ```swift
    /// live.submit(textField.text)
    /// ```
    public func submit(_ query: String) {
        core.submit(query, wait: quietPeriod.delay(forLength: query.count))
    }

    /// Searches `query` now, without the quiet period (a Search button, the Return key); the
    /// same latest-only rules hold.
    ///
    /// ```swift
    /// live.searchNow(textField.text)
    /// ```
    public func searchNow(_ query: String) {
        core.submit(query, wait: .zero)
    }

    /// Cancels what runs and ends ``updates``.
    ///
    /// ```swift
    /// live.finish()
    /// ```
    public func finish() {
        core.finish()
    }
}

/// What a ``LiveSearch`` shares with its coordinator: the state under one lock, the source, the
/// clock, the stream's continuation. No lock is held across an `await`.
final class LiveSearchCore<Source: LiveSearchSource>: @unchecked Sendable {
    typealias Update = LiveSearchUpdate<Source.ID>

    let source: Source
    let stallDelay: Duration
    let limit: Int
    let continuation: AsyncStream<Update>.Continuation
    /// The time since the live search was made, on its clock; a sleep until such a time; a
    /// sleep for a duration (the clock is any `Clock<Duration>`: tests use a manual one).
    let elapsed: @Sendable () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void
    let sleepFor: @Sendable (Duration) async throws -> Void
    let lock = Lock()
    private var state = State()

    struct State {
        var generation = 0
        /// The newest query the coordinator has not taken yet, when its quiet period ends
        /// (``LiveSearchCore/elapsed``), and its generation.
        var pending: (query: String, deadline: Duration, generation: Int)? = nil
        /// The coordinator, parked with nothing to do: a submit resumes it.
        var parked: UnsafeContinuation<Void, Never>? = nil
        /// The coordinator's wait for a quiet period to end, and until when: a submit with an
        /// earlier deadline cancels it; a later one lets it run out.
        var sleeper: Task<Void, Never>? = nil
        var sleepingUntil: Duration = .zero
        /// The search of generation `searchGeneration` and its stall timer.
        var search: Task<Void, Never>? = nil
        var stall: Task<Void, Never>? = nil
        var searchGeneration = 0
        var showingSearching = false
        /// The generation whose results were delivered: its stall timer, if it fires late,
        /// must not turn the spinner on again.
        var answered = 0
        var finished = false
        /// How many submits woke the coordinator (the tests count them).
        var wakes = 0
        /// Whether the coordinator has returned (after `finish`, or the live search's end).
        var coordinatorEnded = false
    }

    init(source: Source, stallDelay: Duration, limit: Int, clock: any Clock<Duration>, continuation: AsyncStream<Update>.Continuation) {
        self.source = source
        self.stallDelay = stallDelay
        self.limit = limit
        self.continuation = continuation
        func timing<C: Clock>(_ clock: C) -> (@Sendable () -> Duration, @Sendable (Duration) async throws -> Void)
        where C.Duration == Duration {
            let start = clock.now
            return ({ start.duration(to: clock.now) }, { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) })
        }
        (elapsed, sleepUntil) = timing(clock)
        sleepFor = { try await clock.sleep(for: $0) }
    }

    var wakes: Int { lock.withLock { state.wakes } }
    /// Whether the coordinator has returned (tests: finished or dropped live searches leave
    /// none running).
    var coordinatorEnded: Bool { lock.withLock { state.coordinatorEnded } }
    /// Whether the coordinator is parked with nothing to do (tests).
    var isParked: Bool { lock.withLock { state.parked != nil } }

    // MARK: The caller's side

    func submit(_ query: String, wait: Duration) {
        let deadline = elapsed() + wait
        let (parked, sleeper): (UnsafeContinuation<Void, Never>?, Task<Void, Never>?) = lock.withLock {
            guard !state.finished else { return (nil, nil) }
            state.generation += 1
            state.pending = (query, deadline, state.generation)
            if let parked = state.parked {
                state.parked = nil
                state.wakes += 1
                return (parked, nil)
            }
            if let sleeper = state.sleeper, deadline < state.sleepingUntil {
                state.sleeper = nil
                state.wakes += 1
                return (nil, sleeper)
            }
            // Sleeping toward an earlier (or the same) deadline, or busy: it will look.
            return (nil, nil)
        }
        if let parked { wake(parked) }
        sleeper?.cancel()
    }

    /// Resumes the parked coordinator: through the coordinator thread, which looks for it
    /// within a millisecond while it is busy and without a signal from the caller.
    private func wake(_ parked: UnsafeContinuation<Void, Never>) {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            CoordinatorThread.shared.wake(parked)
        } else {
            parked.resume()
        }
    }

    func finish() {
        let (parked, tasks): (UnsafeContinuation<Void, Never>?, [Task<Void, Never>]) = lock.withLock {
            guard !state.finished else { return (nil, []) }
            state.finished = true
            state.generation += 1
            state.pending = nil
            continuation.finish()
            defer {
                state.parked = nil
                state.sleeper = nil
                state.search = nil
                state.stall = nil
            }
            return (state.parked, [state.sleeper, state.search, state.stall].compactMap { $0 })
        }
        for task in tasks { task.cancel() }
        parked?.resume()
    }

    // MARK: The coordinator

    /// Starts the coordinator on the coordinator thread (where task executors exist).
    func startCoordinator() {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            Task.detached(executorPreference: CoordinatorThread.shared) { [self] in await coordinate() }
        } else {
            Task.detached { [self] in await coordinate() }
        }
    }

    private enum Step {
        case park
        case sleep(until: Duration)
        case start(String, generation: Int)
        case again
        case end
    }

    /// Takes each newest query in turn: waits out its quiet period, cancels what it made
    /// stale, delivers the empty query's empty results, starts each search. Ends at `finish`.
    private func coordinate() async {
        defer { lock.withLock { state.coordinatorEnded = true } }
        while true {
            var stale: [Task<Void, Never>] = []
            let step: Step = lock.withLock {
                if state.finished { return .end }
                guard let pending = state.pending else { return .park }
                if state.searchGeneration != pending.generation {
                    // A newer query: the search and the stall timer of an older one stop.
                    stale = [state.search, state.stall].compactMap { $0 }
                    state.search = nil
                    state.stall = nil
                    if state.showingSearching {
                        state.showingSearching = false
                        continuation.yield(.idle)
                    }
                }
                if elapsed() < pending.deadline { return .sleep(until: pending.deadline) }
                state.pending = nil
                if pending.query.isEmpty {
                    state.answered = pending.generation
                    continuation.yield(.results(LiveSearchResults(query: "", matches: [], totalCount: 0)))
                    return .again
                }
                state.searchGeneration = pending.generation
                return .start(pending.query, generation: pending.generation)
            }
            for task in stale { task.cancel() }
            switch step {
            case .end:
                return
            case .again:
                continue
            case .park:
                await withUnsafeContinuation { (c: UnsafeContinuation<Void, Never>) in
                    let resumeNow = lock.withLock {
                        if state.finished || state.pending != nil { return true }
                        state.parked = c
                        return false
                    }
                    if resumeNow { c.resume() }
                }
            case .sleep(let deadline):
                await sleep(until: deadline)
            case .start(let query, let generation):
                start(query, generation: generation)
            }
        }
    }

    /// Waits until `deadline`, unless a submit with an earlier one cancels the wait.
    private func sleep(until deadline: Duration) async {
        let sleepUntil = self.sleepUntil
        let sleeper: Task<Void, Never>
        // The sleep throws only CancellationError: being cancelled is how a sooner submit wakes
        // it, so it is no failure.
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            sleeper = Task(executorPreference: CoordinatorThread.shared) { try? await sleepUntil(deadline) }
        } else {
            sleeper = Task { try? await sleepUntil(deadline) }
        }
        let registered = lock.withLock {
            // A submit in the meantime with an earlier deadline found no sleeper to cancel.
            guard !state.finished, let pending = state.pending, pending.deadline >= deadline else { return false }
            state.sleeper = sleeper
            state.sleepingUntil = deadline
            return true
        }
        guard registered else {
            sleeper.cancel()
            return
        }
        await sleeper.value
        lock.withLock {
            if state.sleeper == sleeper { state.sleeper = nil }
        }
    }

    /// Starts the search of `query` and its stall timer on the shared pool.
    private func start(_ query: String, generation: Int) {
        let search = Task.detached(priority: .userInitiated) { [self] in
            let update: Update
            do {
                update = .results(try await source.search(query, limit: limit))
            } catch is CancellationError {
                return
            } catch {
                guard !Task.isCancelled else { return }
                update = .failed(query, String(describing: error))
            }
            deliver(update, generation: generation, searching: false)
        }
        let stallDelay = self.stallDelay, sleepFor = self.sleepFor
        let stall = Task.detached { [self] in
            do { try await sleepFor(stallDelay) } catch { return }
            deliver(.searching(query), generation: generation, searching: true)
        }
        let current = lock.withLock {
            guard state.generation == generation, !state.finished, state.searchGeneration == generation else { return false }
            state.search = search
            state.stall = stall
            return true
        }
        if !current {
            search.cancel()
            stall.cancel()
        }
    }

    /// Delivers `update` if `generation` is still the newest: the check and the yield happen
    /// under the lock that `submit` takes, so nothing newer can have been submitted in between.
    private func deliver(_ update: Update, generation: Int, searching: Bool) {
        let stall: Task<Void, Never>? = lock.withLock {
            guard state.generation == generation, !state.finished else { return nil }
            var stall: Task<Void, Never>? = nil
            if searching {
                guard !state.showingSearching, state.answered != generation else { return nil }
                state.showingSearching = true
            } else {
                stall = state.stall
                state.stall = nil
                state.search = nil
                state.showingSearching = false
                state.answered = generation
            }
            continuation.yield(update)
            return stall
        }
        stall?.cancel()
    }
}

/// What a ``LiveSearch`` delivers.
///
/// ```swift
/// if case .results(let r) = update { print(r.query, r.totalCount) }
/// ```
public enum LiveSearchUpdate<ID: Sendable>: Sendable {
    /// The results of the newest query (they also end any ``searching(_:)``).
    case results(LiveSearchResults<ID>)
    /// The search for this query has run longer than the stall delay: show an activity indicator.
    case searching(String)
    /// A search that showed ``searching(_:)`` was superseded: hide the activity indicator.
    case idle
    /// The source failed on this query (not a cancellation), with its error's description.
    case failed(String, String)
}
