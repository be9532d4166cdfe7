#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The number of cores online, for splitting work into shards.
enum ActiveCores {
    #if hasFeature(Embedded)
    static let count = 1  // the WebAssembly build: one thread
    #else
    static let count: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    #endif
}
