// What Swift cannot reach portably from the compiler and the C library:
// - atomic loads, stores and compare-and-swap on plain memory, for the lazily built tables of
//   Fold's engine (Swift's `Synchronization.Atomic` lives in its own storage and needs macOS 15;
//   these act on slots of a table Fold allocates itself: the GCC/Clang builtins);
// - the C library's `memmem`, which Swift's Glibc module does not export (a GNU extension;
//   defined in CFoldSupport.c).
#ifndef CFOLD_PLATFORM_H
#define CFOLD_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/// An acquire load of a pointer slot.
static inline void *cfold_load_acquire(void *const *slot) {
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

/// Publishes `value` in `slot` if the slot is still NULL (compare-and-swap, acquire-release);
/// 1 when this caller's value was published, 0 when another was there first.
static inline int32_t cfold_publish(void **slot, void *value) {
    void *expected = 0;
    return __atomic_compare_exchange_n(slot, &expected, value, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE) ? 1 : 0;
}

/// Relaxed 64-bit loads and stores, for self-contained table words that several threads may
/// fill with the same value.
static inline uint64_t cfold_load_relaxed64(const uint64_t *slot) {
    return __atomic_load_n(slot, __ATOMIC_RELAXED);
}
static inline void cfold_store_relaxed64(uint64_t *slot, uint64_t value) {
    __atomic_store_n(slot, value, __ATOMIC_RELAXED);
}
/// Relaxed 32-bit loads and stores, for the same kind of word.
static inline uint32_t cfold_load_relaxed32(const uint32_t *slot) {
    return __atomic_load_n(slot, __ATOMIC_RELAXED);
}
static inline void cfold_store_relaxed32(uint32_t *slot, uint32_t value) {
    __atomic_store_n(slot, value, __ATOMIC_RELAXED);
}
/// A relaxed atomic or of `bits` into a 64-bit word of a bit table that several threads fill.
static inline void cfold_or_relaxed64(uint64_t *slot, uint64_t bits) {
    __atomic_fetch_or(slot, bits, __ATOMIC_RELAXED);
}

/// The C library's `memmem`: the first occurrence of `needle` in `haystack`, or NULL.
void *cfold_memmem(const void *haystack, size_t haystack_length, const void *needle,
                   size_t needle_length);

#endif
