/// Search as the user types: one query per keystroke in, the newest query's results out, and
/// nothing that makes typing wait or shows a stale result.
///
/// ``submit(_:)`` returns at once, from any actor: it records the query and starts (after the
/// ``QuietPeriod``) a search off the caller's actor, cancelling the one in flight. ``updates``
/// delivers, to one consumer, only what still answers the newest query:
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
    public typealias Update = LiveSearchUpdate<Source.ID>

    /// The updates, for one consumer. It ends after ``finish()``.
    public let updates: AsyncStream<Update>

    public let source: Source
    public let quietPeriod: QuietPeriod
    /// How long a search runs before ``LiveSearchUpdate/searching(_:)`` is delivered.
    public let stallDelay: Duration
    /// How many matches each result materializes (with ranges to highlight).
    public let limit: Int

    private let clock: any Clock<Duration>
    private let continuation: AsyncStream<Update>.Continuation
    private let lock = Lock()
    nonisolated(unsafe) private var state = State()

    private struct State {
        var generation = 0
        var task: Task<Void, Never>? = nil
        var stall: Task<Void, Never>? = nil
        var showingSearching = false
        /// The generation whose results were delivered: its stall timer, if it fires late,
        /// must not turn the spinner on again.
        var answered = 0
        var finished = false
    }

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
        self.clock = clock
        (updates, continuation) = AsyncStream.makeStream(of: Update.self, bufferingPolicy: .unbounded)
    }

    deinit {
        state.task?.cancel()
        state.stall?.cancel()
        continuation.finish()
    }

    /// Records a keystroke's query and returns at once: the search starts after the quiet
    /// period for its length, unless another query comes first. An empty query delivers empty
    /// results at once.
    ///
    /// ```swift
    /// live.submit(textField.text)
    /// ```
    public func submit(_ query: String) {
        start(query, wait: quietPeriod.delay(forLength: query.count))
    }

    /// Searches `query` now, without the quiet period (a Search button, the Return key); the
    /// same latest-only rules hold.
    ///
    /// ```swift
    /// live.searchNow(textField.text)
    /// ```
    public func searchNow(_ query: String) {
        start(query, wait: .zero)
    }

    /// Cancels what runs and ends ``updates``.
    ///
    /// ```swift
    /// live.finish()
    /// ```
    public func finish() {
        let running: [Task<Void, Never>] = lock.withLock {
            state.finished = true
            state.generation += 1
            continuation.finish()
            defer { state.task = nil; state.stall = nil }
            return [state.task, state.stall].compactMap { $0 }
        }
        for task in running { task.cancel() }
    }

    // The lock guards the state only: tasks are made and cancelled outside it, so that a
    // submit never waits for a thread that holds the lock while it allocates or wakes others.
    private func start(_ query: String, wait: Duration) {
        let started: (generation: Int, previous: [Task<Void, Never>])? = lock.withLock {
            guard !state.finished else { return nil }
            state.generation += 1
            let previous = [state.task, state.stall].compactMap { $0 }
            state.task = nil
            state.stall = nil
            if state.showingSearching {
                state.showingSearching = false
                continuation.yield(.idle)
            }
            if query.isEmpty {
                continuation.yield(.results(LiveSearchResults(query: query, matches: [], totalCount: 0)))
            }
            return (state.generation, previous)
        }
        guard let started else { return }
        for task in started.previous { task.cancel() }
        guard !query.isEmpty else { return }
        let generation = started.generation
        let task = Task.detached(priority: .userInitiated) { [self] in
            await run(query, generation: generation, wait: wait)
        }
        // A newer query (or finish) may have come in the meantime: then this one is cancelled
        // here, as that query would have cancelled it.
        let current = lock.withLock {
            guard state.generation == generation, !state.finished else { return false }
            state.task = task
            return true
        }
        if !current { task.cancel() }
    }

    private func run(_ query: String, generation: Int, wait: Duration) async {
        if wait > .zero {
            do { try await Self.sleep(clock, wait) } catch { return }
        }
        guard !Task.isCancelled else { return }
        let stallDelay = self.stallDelay
        let clock = self.clock
        let stall = Task.detached { [self] in
            do { try await Self.sleep(clock, stallDelay) } catch { return }
            deliver(.searching(query), generation: generation, searching: true)
        }
        let current = lock.withLock {
            guard state.generation == generation else { return false }
            state.stall = stall
            return true
        }
        guard current else {
            stall.cancel()
            return
        }
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
                state.showingSearching = false
                state.answered = generation
            }
            continuation.yield(update)
            return stall
        }
        stall?.cancel()
    }

    private static func sleep<C: Clock>(_ clock: C, _ duration: Duration) async throws where C.Duration == Duration {
        try await clock.sleep(for: duration)
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
