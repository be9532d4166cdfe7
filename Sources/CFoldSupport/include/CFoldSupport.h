// What Fold needs from C that is not ICU, and nothing else:
// - atomic loads, stores and compare-and-swap on plain memory, for the lazily built tables of
//   Fold's engine (Swift's `Synchronization.Atomic` lives in its own storage and needs macOS 15;
//   these act on slots of a table Fold allocates itself: the GCC/Clang builtins);
// - the C library's `memmem`, which Swift's Glibc module does not export (a GNU extension);
// - the byte classes of the tokenizer's ASCII windows, 64 bytes at a time, with SSE2 where the
//   target has it (every x86-64): Swift has no portable "one bit per byte lane" operation
//   (movemask), and without it the classes cost four times the instructions. Elsewhere the same
//   classes come from eight-byte words (SWAR); the tests compare the two on every target that
//   has SSE2.
#ifndef CFOLD_SUPPORT_H
#define CFOLD_SUPPORT_H

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

/// The C library's `memmem`: the first occurrence of `needle` in `haystack`, or NULL.
void *cfold_memmem(const void *haystack, size_t haystack_length, const void *needle,
                   size_t needle_length);


#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The classes of 64 bytes, one bit per byte (byte k is bit k): what the tokenizer's ASCII
/// windows decide words from.
typedef struct {
    /// Bytes that are not ASCII, and "_": the window does not decide words that touch them.
    uint64_t undecided;
    /// A-Z and a-z.
    uint64_t letters;
    /// 0-9.
    uint64_t digits;
    /// ".", "," and ";": the bytes that may join two letters or two digits.
    uint64_t joiners;
} cfold_ascii_classes;

/// The classes of the 64 bytes at `p` from eight-byte words: the portable way, and the
/// reference the tests hold the SSE2 way to.
static inline cfold_ascii_classes cfold_ascii_classes64_portable(const uint8_t *p) {
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    cfold_ascii_classes r = {0, 0, 0, 0};
    for (int k = 0; k < 8; k++) {
        uint64_t w;
        __builtin_memcpy(&w, p + 8 * k, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        // With each byte's high bit set, subtracting `lo` borrows from no other byte and leaves
        // the high bit set exactly when the byte is at least `lo`.
        const uint64_t c = w | highs, ascii = ~w & highs, lowered = c | (0x20 * ones);
#define CFOLD_WITHIN(x, lo, hi) ((((x) - (lo) * ones) & ~((x) - ((hi) + 1) * ones)) & ascii)
        // The high bit of each byte, gathered into eight bits (byte k to bit k).
#define CFOLD_GATHER(x) (((((x) >> 7) * 0x0102040810204080ull) >> 56))
        const int shift = 8 * k;
        r.undecided |= CFOLD_GATHER((w & highs) | CFOLD_WITHIN(c, 0x5Full, 0x5Full)) << shift;
        r.letters |= CFOLD_GATHER(CFOLD_WITHIN(lowered, 0x61ull, 0x7Aull)) << shift;
        r.digits |= CFOLD_GATHER(CFOLD_WITHIN(c, 0x30ull, 0x39ull)) << shift;
        // "," (2C) and "." (2E) are the bytes that become 2E with bit 1 set.
        r.joiners |= CFOLD_GATHER(CFOLD_WITHIN(c | (0x02 * ones), 0x2Eull, 0x2Eull) | CFOLD_WITHIN(c, 0x3Bull, 0x3Bull)) << shift;
#undef CFOLD_WITHIN
#undef CFOLD_GATHER
    }
    return r;
}

/// The classes of the 64 bytes at `p` (all 64 are read): SSE2 where the target has it, else
/// ``cfold_ascii_classes64_portable``.
static inline cfold_ascii_classes cfold_ascii_classes64(const uint8_t *p) {
#if defined(__SSE2__)
    cfold_ascii_classes r = {0, 0, 0, 0};
    // Unsigned ranges as signed comparisons: x + (0x80 - lo) < -128 + (hi - lo + 1).
    const __m128i toLetters = _mm_set1_epi8((char)(0x80 - 'a')), letterCount = _mm_set1_epi8((char)(-128 + 26));
    const __m128i toDigits = _mm_set1_epi8((char)(0x80 - '0')), digitCount = _mm_set1_epi8((char)(-128 + 10));
    const __m128i caseBit = _mm_set1_epi8(0x20), bit1 = _mm_set1_epi8(0x02);
    const __m128i lowLine = _mm_set1_epi8('_'), period = _mm_set1_epi8('.'), semicolon = _mm_set1_epi8(';');
    for (int k = 0; k < 4; k++) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        const int shift = 16 * k;
        const uint64_t high = (uint64_t)(uint32_t)_mm_movemask_epi8(v);
        const __m128i letters = _mm_cmplt_epi8(_mm_add_epi8(_mm_or_si128(v, caseBit), toLetters), letterCount);
        const __m128i digits = _mm_cmplt_epi8(_mm_add_epi8(v, toDigits), digitCount);
        const __m128i joiners = _mm_or_si128(_mm_cmpeq_epi8(_mm_or_si128(v, bit1), period), _mm_cmpeq_epi8(v, semicolon));
        r.undecided |= (high | (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, lowLine))) << shift;
        r.letters |= ((uint64_t)(uint32_t)_mm_movemask_epi8(letters) & ~high) << shift;
        r.digits |= ((uint64_t)(uint32_t)_mm_movemask_epi8(digits) & ~high) << shift;
        r.joiners |= (uint64_t)(uint32_t)_mm_movemask_epi8(joiners) << shift;
    }
    return r;
#else
    return cfold_ascii_classes64_portable(p);
#endif
}

#endif
