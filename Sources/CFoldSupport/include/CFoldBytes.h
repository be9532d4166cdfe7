// Byte-parallel steps, 64 or 16 bytes at a time, for the tokenizer and the fold:
// - the byte classes of the tokenizer's ASCII windows, 64 bytes at a time, with SSE2 where the
//   target has it (every x86-64): Swift has no portable "one bit per byte lane" operation
//   (movemask), and without it the classes cost four times the instructions. Elsewhere the same
//   classes come from eight-byte words (SWAR); the tests compare the two on every target that
//   has SSE2;
// - the same for the code points those windows take as runs (Cyrillic and Greek letters,
//   ideographs and kana, the separators between them), from masks of single bytes;
// - the fold's step over plain ASCII, sixteen bytes at once (SSE2; two eight-byte words
//   elsewhere), and the same for a text's last bytes: the count of bytes before the first that
//   is not plain ASCII is a movemask and a bit scan.
#ifndef CFOLD_BYTES_H
#define CFOLD_BYTES_H

#include <stdint.h>
#include "CFoldWindowClasses.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The classes of 64 bytes, one bit per byte (byte k is bit k): what the tokenizer's ASCII
/// windows decide words from. Which bytes are of which class is generated from Fold's
/// word-boundary table and rules (CFoldWindowClasses.h).
typedef struct {
    /// Bytes that are not ASCII, and the ASCII bytes of CFOLD_WINDOW_UNDECIDED ("_"): the
    /// window does not decide words that touch them.
    uint64_t undecided;
    /// CFOLD_WINDOW_LETTERS (A-Z and a-z).
    uint64_t letters;
    /// CFOLD_WINDOW_DIGITS (0-9).
    uint64_t digits;
    /// CFOLD_WINDOW_JOINERS (".", "," and ";"): the bytes that may join two letters or two digits.
    uint64_t joiners;
} cfold_ascii_classes;

/// The 64 bytes at `p` as eight words, byte k of each its bits 8k to 8k + 7.
static inline void cfold_words64(const uint8_t *p, uint64_t *w) {
    for (int k = 0; k < 8; k++) {
        __builtin_memcpy(&w[k], p + 8 * k, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w[k] = __builtin_bswap64(w[k]);
#endif
    }
}

/// The high bit of each of the eight bytes of `x` (its other bits clear), gathered into eight
/// bits: byte k to bit k.
static inline uint64_t cfold_gather_high_bits(uint64_t x) {
    return ((x >> 7) * 0x0102040810204080ull) >> 56;
}

/// The high bit (0x80) of each byte of the eight in `w` that is ASCII and, with the bits of
/// `ignore` set, within `lo`...`hi` (all below 0x80). With each byte's high bit set,
/// subtracting `lo` borrows from no other byte and leaves the high bit set exactly when the
/// byte is at least `lo`.
static inline __attribute__((always_inline)) uint64_t cfold_within8(uint64_t w, uint64_t ignore, uint64_t lo, uint64_t hi) {
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    const uint64_t x = w | highs | (ignore * ones);
    return ((x - lo * ones) & ~(x - (hi + 1) * ones)) & ~w & highs;
}

/// The high bit of each byte of the eight in `w` that is an ASCII letter or digit of the
/// windows (CFOLD_WINDOW_LETTERS, CFOLD_WINDOW_DIGITS): the state machine's step over runs of them.
static inline __attribute__((always_inline)) uint64_t cfold_word_bytes8(uint64_t w) {
#define CFOLD_SWAR(ignore, lo, hi) | cfold_within8(w, (ignore), (lo), (hi))
    return 0 CFOLD_WINDOW_LETTERS(CFOLD_SWAR) CFOLD_WINDOW_DIGITS(CFOLD_SWAR);
#undef CFOLD_SWAR
}

/// The classes of the 64 bytes at `p` from eight-byte words: the portable way, and the
/// reference the tests hold the SSE2 way to.
static inline cfold_ascii_classes cfold_ascii_classes64_portable(const uint8_t *p) {
    const uint64_t highs = 0x8080808080808080ull;
    cfold_ascii_classes r = {0, 0, 0, 0};
    uint64_t words[8];
    cfold_words64(p, words);
    for (int k = 0; k < 8; k++) {
        const uint64_t w = words[k];
        const int shift = 8 * k;
#define CFOLD_SWAR(ignore, lo, hi) | cfold_within8(w, (ignore), (lo), (hi))
        r.undecided |= cfold_gather_high_bits((w & highs) CFOLD_WINDOW_UNDECIDED(CFOLD_SWAR)) << shift;
        r.letters |= cfold_gather_high_bits(0 CFOLD_WINDOW_LETTERS(CFOLD_SWAR)) << shift;
        r.digits |= cfold_gather_high_bits(0 CFOLD_WINDOW_DIGITS(CFOLD_SWAR)) << shift;
        r.joiners |= cfold_gather_high_bits(0 CFOLD_WINDOW_JOINERS(CFOLD_SWAR)) << shift;
#undef CFOLD_SWAR
    }
    return r;
}

#if defined(__SSE2__)
/// The bytes of `v` that, with the bits of `ignore` set, are within `lo`...`hi`: 0xFF each.
/// Unsigned ranges as signed comparisons: x + (0x80 - lo) < -128 + (hi - lo + 1).
static inline __attribute__((always_inline)) __m128i cfold_within16(__m128i v, int ignore, int lo, int hi) {
    const __m128i x = ignore ? _mm_or_si128(v, _mm_set1_epi8((char)ignore)) : v;
    if (lo == hi) return _mm_cmpeq_epi8(x, _mm_set1_epi8((char)lo));
    return _mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8((char)(0x80 - lo))), _mm_set1_epi8((char)(-128 + (hi - lo + 1))));
}
#endif

/// The classes of the 64 bytes at `p` (all 64 are read): SSE2 where the target has it, else
/// ``cfold_ascii_classes64_portable``.
static inline __attribute__((always_inline)) cfold_ascii_classes cfold_ascii_classes64(const uint8_t *p) {
#if defined(__SSE2__)
    cfold_ascii_classes r = {0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        const int shift = 16 * k;
        const uint64_t high = (uint64_t)(uint32_t)_mm_movemask_epi8(v);
#define CFOLD_SSE2(ignore, lo, hi) | cfold_within16(v, (ignore), (lo), (hi))
        const __m128i undecided = _mm_setzero_si128() CFOLD_WINDOW_UNDECIDED(CFOLD_SSE2);
        const __m128i letters = _mm_setzero_si128() CFOLD_WINDOW_LETTERS(CFOLD_SSE2);
        const __m128i digits = _mm_setzero_si128() CFOLD_WINDOW_DIGITS(CFOLD_SSE2);
        const __m128i joiners = _mm_setzero_si128() CFOLD_WINDOW_JOINERS(CFOLD_SSE2);
#undef CFOLD_SSE2
        r.undecided |= (high | (uint64_t)(uint32_t)_mm_movemask_epi8(undecided)) << shift;
        r.letters |= ((uint64_t)(uint32_t)_mm_movemask_epi8(letters) & ~high) << shift;
        r.digits |= ((uint64_t)(uint32_t)_mm_movemask_epi8(digits) & ~high) << shift;
        // No byte from 0x80 is within an ASCII range (the signed compare above, or an equality),
        // so the joiners need no mask (the letters' and digits' masks are the windows' habit).
        r.joiners |= (uint64_t)(uint32_t)_mm_movemask_epi8(joiners) << shift;
    }
    return r;
#else
    return cfold_ascii_classes64_portable(p);
#endif
}

// The code points of the scripts the tokenizer's windows take as runs, 64 bytes at a time (byte
// k is bit k, set at a code point's first byte when every byte of it is within the 64), from
// masks of single bytes: each byte's range (SSE2: an add and a signed compare, and a movemask;
// elsewhere from eight-byte words), then the code points from the masks shifted.

#if defined(__SSE2__)
/// The bytes of the 64 at `v` within `lo`...`hi`, one bit each.
static inline __attribute__((always_inline)) uint64_t cfold_bytes64_sse2(const __m128i *v, int lo, int hi) {
    // Unsigned ranges as signed comparisons: x + (0x80 - lo) < -128 + (hi - lo + 1).
    const __m128i shift = _mm_set1_epi8((char)(0x80 - lo)), count = _mm_set1_epi8((char)(-128 + (hi - lo + 1)));
    uint64_t r = 0;
    for (int k = 0; k < 4; k++) {
        r |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(_mm_add_epi8(v[k], shift), count)) << (16 * k);
    }
    return r;
}
#endif

/// The bytes of the 64 at `w` (eight little-endian words) within `lo`...`hi` (both 80 or
/// more), one bit each: the portable way.
static inline uint64_t cfold_high_bytes64_portable(const uint64_t *w, uint64_t lo, uint64_t hi) {
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t r = 0;
    for (int k = 0; k < 8; k++) {
        // The low seven bits with the high bit set: subtracting (lo - 80) borrows from no other
        // byte and leaves the high bit set exactly when the byte is at least lo.
        const uint64_t x = w[k] | highs;
        const uint64_t within = ((x - (lo - 0x80) * ones) & ~(x - (hi - 0x7F) * ones)) & w[k] & highs;
        r |= cfold_gather_high_bits(within) << (8 * k);
    }
    return r;
}

// CFOLD_TWO_BYTE_LETTERS, CFOLD_IDEOGRAPHS and CFOLD_SEPARATORS: CFoldWindowClasses.h.

/// ``CFOLD_TWO_BYTE_LETTERS`` of the 64 bytes at `p`, the portable way (the tests' reference).
static inline uint64_t cfold_two_byte_letters64_portable(const uint8_t *p) {
    uint64_t w[8];
    cfold_words64(p, w);
#define CFOLD_PORTABLE(lo, hi) cfold_high_bytes64_portable(w, (lo), (hi))
    return CFOLD_TWO_BYTE_LETTERS(CFOLD_PORTABLE);
#undef CFOLD_PORTABLE
}

/// ``CFOLD_IDEOGRAPHS`` and ``CFOLD_SEPARATORS`` of the 64 bytes at `p`.
typedef struct {
    uint64_t ideographs;
    uint64_t separators;
} cfold_ideograph_runs;

/// ``cfold_ideograph_runs64``, the portable way (the tests' reference).
static inline cfold_ideograph_runs cfold_ideograph_runs64_portable(const uint8_t *p) {
    uint64_t w[8];
    cfold_words64(p, w);
#define CFOLD_PORTABLE(lo, hi) cfold_high_bytes64_portable(w, (lo), (hi))
    cfold_ideograph_runs r = {CFOLD_IDEOGRAPHS(CFOLD_PORTABLE), CFOLD_SEPARATORS(CFOLD_PORTABLE)};
#undef CFOLD_PORTABLE
    return r;
}

/// ``CFOLD_TWO_BYTE_LETTERS`` of the 64 bytes at `p` (all 64 are read).
static inline __attribute__((always_inline)) uint64_t cfold_two_byte_letters64(const uint8_t *p) {
#if defined(__SSE2__)
    __m128i v[4];
    for (int k = 0; k < 4; k++) v[k] = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
#define CFOLD_SSE2(lo, hi) cfold_bytes64_sse2(v, (lo), (hi))
    return CFOLD_TWO_BYTE_LETTERS(CFOLD_SSE2);
#undef CFOLD_SSE2
#else
    return cfold_two_byte_letters64_portable(p);
#endif
}

/// ``CFOLD_IDEOGRAPHS`` and ``CFOLD_SEPARATORS`` of the 64 bytes at `p` (all 64 are read).
static inline __attribute__((always_inline)) cfold_ideograph_runs cfold_ideograph_runs64(const uint8_t *p) {
#if defined(__SSE2__)
    __m128i v[4];
    for (int k = 0; k < 4; k++) v[k] = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
#define CFOLD_SSE2(lo, hi) cfold_bytes64_sse2(v, (lo), (hi))
    cfold_ideograph_runs r = {CFOLD_IDEOGRAPHS(CFOLD_SSE2), CFOLD_SEPARATORS(CFOLD_SSE2)};
#undef CFOLD_SSE2
    return r;
#else
    return cfold_ideograph_runs64_portable(p);
#endif
}

/// Eight bytes as plain ASCII, from one word (SWAR; little-endian: byte k is bits 8k...8k+7):
/// `w` with A-Z lowercased (for eight plain ASCII bytes; the others are the caller's to drop).
static inline __attribute__((always_inline)) uint64_t cfold_lowercase_ascii8(uint64_t w) {
    return w | (((w + 0x3F3F3F3F3F3F3F3FULL) & ~(w + 0x2525252525252525ULL) & 0x8080808080808080ULL) >> 2);
}

/// The high bit (0x80) of each of the eight bytes in `w` that is not plain ASCII: 0x80 and
/// above, or a control byte below 0x20 (which folds through the profile's table).
static inline __attribute__((always_inline)) uint64_t cfold_special_bytes8(uint64_t w) {
    return (w | ((w - 0x2020202020202020ULL) & ~w)) & 0x8080808080808080ULL;
}

/// The portable step on sixteen bytes given as two little-endian words (byte k at bits 8k).
static inline int cfold_ascii_words16_portable(uint64_t w0, uint64_t w1, uint8_t *out, int lowercase) {
    uint64_t o[2] = { lowercase ? cfold_lowercase_ascii8(w0) : w0, lowercase ? cfold_lowercase_ascii8(w1) : w1 };
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    o[0] = __builtin_bswap64(o[0]);
    o[1] = __builtin_bswap64(o[1]);
#endif
    __builtin_memcpy(out, o, 16);
    uint64_t s0 = cfold_special_bytes8(w0), s1 = cfold_special_bytes8(w1);
    if (s0 != 0) return __builtin_ctzll(s0) >> 3;
    return s1 != 0 ? 8 + (__builtin_ctzll(s1) >> 3) : 16;
}

/// The portable way of `cfold_ascii_step16`, from two eight-byte words.
static inline int cfold_ascii_step16_portable(const uint8_t *src, uint8_t *out, int lowercase) {
    uint64_t w[2];
    __builtin_memcpy(w, src, 16);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w[0] = __builtin_bswap64(w[0]);
    w[1] = __builtin_bswap64(w[1]);
#endif
    return cfold_ascii_words16_portable(w[0], w[1], out, lowercase);
}

#if defined(__SSE2__)
/// Sixteen bytes as plain ASCII: their fold (A-Z lowercased when `lowercase` is not 0) in
/// `folded`, and one bit for each byte that is not plain ASCII (0x80 and above, or below 0x20).
static inline __attribute__((always_inline)) unsigned cfold_ascii16_sse2(__m128i v, int lowercase, __m128i *folded) {
    /* A-Z moved to -128...-103. */
    __m128i upper = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x3F)), _mm_set1_epi8(-102));
    *folded = lowercase ? _mm_or_si128(v, _mm_and_si128(upper, _mm_set1_epi8(0x20))) : v;
    /* Signed: bytes of 0x80 and above are negative, so below 0x20 too. */
    return (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
}
#endif

/// Folds the 16 bytes at `src` as plain ASCII into `out` (all 16 are stored; A-Z lowercased
/// when `lowercase` is not 0) and returns how many come before the first byte that is not plain
/// ASCII (0x80 or above, or a control byte below 0x20): 0 to 16, the bytes the caller keeps.
/// The fold's ASCII between accented letters, sixteen bytes a step, so that a step is rarely
/// followed by another (a branch the text decides).
static inline __attribute__((always_inline)) int cfold_ascii_step16(const uint8_t *src, uint8_t *out, int lowercase) {
#if defined(__SSE2__)
    __m128i folded;
    unsigned special = cfold_ascii16_sse2(_mm_loadu_si128((const __m128i *)src), lowercase, &folded);
    _mm_storeu_si128((__m128i *)out, folded);
    return __builtin_ctz(special | 0x10000u);
#else
    return cfold_ascii_step16_portable(src, out, lowercase);
#endif
}

/// The portable way of `cfold_ascii_tail16`: the bytes after the first `skip`, folded as
/// `cfold_ascii_step16_portable` folds them, from a copy padded with a byte that is not ASCII.
static inline int cfold_ascii_tail16_portable(const uint8_t *last16, unsigned skip, uint8_t *out, int lowercase) {
    uint8_t padded[16], folded[16];
    __builtin_memset(padded, 0x80, 16);
    __builtin_memcpy(padded, last16 + skip, 16 - skip);
    int k = cfold_ascii_step16_portable(padded, folded, lowercase);
    __builtin_memcpy(out, folded, 16 - skip);
    return k;
}

/// `cfold_ascii_step16` for the last bytes of a text, fewer than 16 from `out`'s input on:
/// from the 16 bytes that end the text (`last16`), of which the first `skip` (1 to 16) are not
/// to be folded again. The rest go to `out` as `cfold_ascii_step16` would put them (the text's
/// end counts as a byte that is not plain ASCII), and the 16 bytes before `out`, which must be
/// the caller's, are left as they were (read first and stored again after). The count returned
/// is what `cfold_ascii_step16` would return on those bytes.
static inline __attribute__((always_inline)) int cfold_ascii_tail16(const uint8_t *last16, unsigned skip, uint8_t *out, int lowercase) {
#if defined(__SSE2__)
    __m128i folded;
    unsigned special = cfold_ascii16_sse2(_mm_loadu_si128((const __m128i *)last16), lowercase, &folded);
    __m128i before = _mm_loadu_si128((const __m128i *)(out - 16));
    _mm_storeu_si128((__m128i *)(out - skip), folded);
    _mm_storeu_si128((__m128i *)(out - 16), before);
    return __builtin_ctz((special >> skip) | (1u << (16 - skip)));
#else
    return cfold_ascii_tail16_portable(last16, skip, out, lowercase);
#endif
}

/// The bytes at `src` as a little-endian word (byte k at bits 8k), on any byte order.
static inline uint64_t cfold_load_le64(const uint8_t *src) {
    uint64_t w;
    __builtin_memcpy(&w, src, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/// `cfold_load_le64` for four bytes.
static inline uint64_t cfold_load_le32(const uint8_t *src) {
    uint32_t w;
    __builtin_memcpy(&w, src, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap32(w);
#endif
    return w;
}

/// `cfold_ascii_step16` for a whole text shorter than 16 bytes (`n`, 1 to 15): its bytes are
/// read without reading past them (two overlapping loads) into two little-endian words padded
/// with 0x80 (a byte that is not plain ASCII), in registers (a copy through memory would make
/// the sixteen-byte load wait for the stores), and 16 bytes are stored at `out`, which must have
/// room for them. Returns how many of the `n` come before the first byte that is not plain
/// ASCII: `n` when the text is done. `portable` picks the portable step, for the tests.
static inline __attribute__((always_inline)) int cfold_ascii_short(const uint8_t *src, unsigned n, uint8_t *out, int lowercase, int portable) {
    const uint64_t pad = 0x8080808080808080ull;
    uint64_t w0, w1;
    if (n >= 8) {
        /* src[n-8 ..< n]: its byte j is the text's byte n-8+j, word 1's byte j-(16-n). */
        uint64_t b = cfold_load_le64(src + n - 8);
        unsigned shift = 8 * (16 - n);   /* 8 to 64 */
        w0 = cfold_load_le64(src);
        w1 = (shift == 64 ? 0 : b >> shift) | (pad << (8 * (n - 8)));
    } else {
        uint64_t w;
        if (n >= 4) {
            w = cfold_load_le32(src) | (cfold_load_le32(src + n - 4) << (8 * (n - 4)));
        } else {
            w = (uint64_t)src[0] | ((uint64_t)src[n / 2] << (8 * (n / 2))) | ((uint64_t)src[n - 1] << (8 * (n - 1)));
        }
        uint64_t kept = (1ull << (8 * n)) - 1;
        w0 = (w & kept) | (pad & ~kept);
        w1 = pad;
    }
#if defined(__SSE2__)
    if (!portable) {
        __m128i folded;
        unsigned special = cfold_ascii16_sse2(_mm_set_epi64x((long long)w1, (long long)w0), lowercase, &folded);
        _mm_storeu_si128((__m128i *)out, folded);
        return __builtin_ctz(special | 0x10000u);
    }
#endif
    (void)portable;
    return cfold_ascii_words16_portable(w0, w1, out, lowercase);
}

#endif
