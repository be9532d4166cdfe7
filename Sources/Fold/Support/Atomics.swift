internal import CFoldSupport

/// Atomic access to slots of tables the engine allocates itself (see CFoldPlatform.h for why
/// these are C): lock-free publication of lazily built pages, and relaxed words.
enum Atomics {
    /// An acquire load of a pointer slot.
    @inline(__always)
    static func loadAcquire(_ slot: UnsafePointer<UnsafeMutableRawPointer?>) -> UnsafeMutableRawPointer? {
        cfold_load_acquire(slot)
    }

    /// Stores `value` in `slot` if it is still nil; false when another thread was first (the
    /// caller then frees its copy and loads the published one).
    @inline(__always)
    static func publish(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ value: UnsafeMutableRawPointer) -> Bool {
        cfold_publish(slot, value) != 0
    }

    @inline(__always)
    static func loadRelaxed(_ slot: UnsafePointer<UInt64>) -> UInt64 { cfold_load_relaxed64(slot) }

    @inline(__always)
    static func storeRelaxed(_ slot: UnsafeMutablePointer<UInt64>, _ value: UInt64) { cfold_store_relaxed64(slot, value) }

    @inline(__always)
    static func storeRelaxed(_ slot: UnsafeMutablePointer<UInt32>, _ value: UInt32) { cfold_store_relaxed32(slot, value) }

    @inline(__always)
    static func loadRelaxed(_ slot: UnsafePointer<UInt32>) -> UInt32 { cfold_load_relaxed32(slot) }

    @inline(__always)
    static func orRelaxed(_ slot: UnsafeMutablePointer<UInt64>, _ bits: UInt64) { cfold_or_relaxed64(slot, bits) }
}
