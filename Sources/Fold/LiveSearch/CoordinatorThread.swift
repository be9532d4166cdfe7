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
/// searching (the caller was preempted); waking this thread is one semaphore signal. So
/// `submit` wakes at most this thread, and only when the coordinator must act sooner than it
/// would on its own.
final class CoordinatorThread: TaskExecutor, @unchecked Sendable {
    /// Made on first use; it lives as long as the process (a thread parked on a semaphore).
    static let shared = CoordinatorThread()

    private let lock = Lock()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private let ready = DispatchSemaphore(value: 0)
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
        lock.withLock { jobs.append(job) }
        ready.signal()
    }

    private func run() {
        threadID = pthread_self()
        started.signal()
        while true {
            ready.wait()
            let job: UnownedJob? = lock.withLock {
                guard head < jobs.count else { return nil }
                defer {
                    head += 1
                    if head == jobs.count {
                        jobs.removeAll(keepingCapacity: true)
                        head = 0
                    }
                }
                return jobs[head]
            }
            job?.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Whether the caller runs on this thread.
    static var isCurrent: Bool {
        guard let id = shared.threadID else { return false }
        return pthread_equal(pthread_self(), id) != 0
    }
}
