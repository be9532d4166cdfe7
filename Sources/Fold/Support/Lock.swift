#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex for Fold's rare slow paths (the registry of shared engines, live search's state;
/// foldcheck's live screen uses it too). It is never held across an `await`: `withLock` takes a
/// synchronous closure. (`Synchronization.Mutex` would do
/// on Linux, but needs macOS 15 on Apple platforms.)
#if hasFeature(Embedded)
/// The WebAssembly build (Embedded Swift) runs on one thread: nothing to exclude.
package final class Lock: @unchecked Sendable {
    package init() {}

    package func withLock<R>(_ body: () throws -> R) rethrows -> R { try body() }
}
#else
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
#endif
