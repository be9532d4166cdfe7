import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one thread that the coordinators of every ``LiveSearch`` run on, as a task executor.
///
/// A coordinator only keeps the books (which query is newest, when its quiet period ends,
/// which tasks to cancel); the searches themselves run on the shared pool. Waking a task on the
/// shared pool from `submit` cost 20 to 100 µs, and milliseconds when every core was busy
/// searching (the caller was preempted); waking a parked thread costs a system call, 10 µs
/// typically and 60 to 80 µs at the 99th percentile on a two-core machine. So while it has
/// had work in the last two seconds (someone is typing), this thread looks for work every
/// millisecond by itself and nobody signals it: a keystroke costs its caller a lock and a
/// store, and its search starts within a millisecond. After two quiet seconds it parks, and
/// the next keystroke signals it once.
final class CoordinatorThread: TaskExecutor, @unchecked Sendable {
    /// Made on first use; it lives as long as the process (a thread parked on a semaphore).
    static let shared = CoordinatorThread()

    private let lock = Lock()
    private var jobs: [UnownedJob] = []
    private let ready = DispatchSemaphore(value: 0)
    /// Whether the thread looks for work every millisecond (it had work in the last
    /// `activeSpan`): then nobody needs to signal it.
    private var polling = false
    private var activeUntil = DispatchTime(uptimeNanoseconds: 0)
    /// How long the thread keeps polling after its last work: two seconds (tests make it
    /// longer, so that a machine too busy to run them on time does not decide what they see).
    private var activeSpan = DispatchTimeInterval.seconds(2)
    func setActiveSpan(_ span: DispatchTimeInterval) { lock.withLock { activeSpan = span } }
    static let pollInterval = DispatchTimeInterval.milliseconds(1)
    /// The thread's id, for the tests that check that no search runs on it.
    private(set) nonisolated(unsafe) var threadID: pthread_t? = nil
    private let started = DispatchSemaphore(value: 0)

    private init() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t?.none
        #if canImport(Darwin)
        var t: pthread_t? = nil
        pthread_create(&t, nil, { context in
            Unmanaged<CoordinatorThread>.fromOpaque(context).takeUnretainedValue().run()
            return nil
        }, context)
        thread = t
        #else
        var t = pthread_t()
        pthread_create(&t, nil, { context in
            Unmanaged<CoordinatorThread>.fromOpaque(context!).takeUnretainedValue().run()
            return nil
        }, context)
        thread = t
        #endif
        _ = thread
        started.wait()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let signal = lock.withLock {
            jobs.append(job)
            if !polling { signals += 1 }
            return !polling
        }
        if signal { ready.signal() }
    }

    /// How many times the thread was signalled (the tests check that a typing burst costs none).
    var signalCount: Int { lock.withLock { signals } }
    private var signals = 0

    /// Resumes `continuation` (a coordinator parked with nothing to do) on this thread: at its
    /// next look when it is polling, at once otherwise.
    func wake(_ continuation: UnsafeContinuation<Void, Never>) {
        let signal = lock.withLock {
            wakes.append(continuation)
            if !polling { signals += 1 }
            return !polling
        }
        if signal { ready.signal() }
    }
    private var wakes: [UnsafeContinuation<Void, Never>] = []

    private func run() {
        threadID = pthread_self()
        started.signal()
        var batch: [UnownedJob] = [], resumes: [UnsafeContinuation<Void, Never>] = []
        while true {
            if lock.withLock({ polling }) {
                _ = ready.wait(timeout: .now() + Self.pollInterval)
            } else {
                ready.wait()
            }
            // Everything there is, and whether to keep polling.
            lock.withLock {
                swap(&batch, &jobs)
                swap(&resumes, &wakes)
                let now = DispatchTime.now()
                if !batch.isEmpty || !resumes.isEmpty { activeUntil = now + activeSpan }
                polling = now < activeUntil
            }
            // Resumed coordinators come back as jobs, run in this same pass.
            for continuation in resumes { continuation.resume() }
            resumes.removeAll(keepingCapacity: true)
            while !batch.isEmpty {
                for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
                batch.removeAll(keepingCapacity: true)
                lock.withLock { swap(&batch, &jobs) }
            }
        }
    }

    /// Whether the caller runs on this thread.
    static var isCurrent: Bool {
        guard let id = shared.threadID else { return false }
        return pthread_equal(pthread_self(), id) != 0
    }
}
