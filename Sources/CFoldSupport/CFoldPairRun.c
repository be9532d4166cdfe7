// cfold_pair_run (include/CFoldPairRun.h): the vector steps and the portable one.
#include "CFoldPairRun.h"

int64_t cfold_pair_run_portable(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets,
                                uint8_t lead, int32_t lowercase) {
    const uint8_t pair = lead & 0xFE;
    int64_t pos = 0;
    while (pos + 1 <= n && pos + 1 <= room) {
        const uint8_t a = src[pos];
        if (a >= 0x20 && a < 0x80) {
            out[pos] = lowercase && a >= 'A' && a <= 'Z' ? (uint8_t)(a + 0x20) : a;
            pos += 1;
            continue;
        }
        if (pos + 2 > n || pos + 2 > room) break;
        const uint8_t b = src[pos + 1];
        if ((a & 0xFE) != pair || (b & 0xC0) != 0x80) break;
        const uint8_t t = targets[(a & 1) << 6 | (b & 0x3F)];
        if (!(t & CFOLD_PAIR_FOLDS)) break;
        out[pos] = (uint8_t)(pair | ((t >> 6) & 1));
        out[pos + 1] = (uint8_t)(0x80 | (t & 0x3F));
        pos += 2;
    }
    return pos;
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

__attribute__((target("ssse3")))
static int64_t cfold_pair_run_ssse3(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets,
                                    uint8_t lead, int32_t lowercase) {
    __m128i rows[8];
    for (int r = 0; r < 8; r++) rows[r] = _mm_loadu_si128((const __m128i *)(const void *)(targets + 16 * r));
    const __m128i pair = _mm_set1_epi8((char)(lead & 0xFE));
    const __m128i one = _mm_set1_epi8(1), x3f = _mm_set1_epi8(0x3F), x40 = _mm_set1_epi8(0x40);
    const __m128i x70 = _mm_set1_epi8(0x70), x10 = _mm_set1_epi8(0x10), x80 = _mm_set1_epi8((char)0x80);
    const __m128i xfe = _mm_set1_epi8((char)0xFE), xc0 = _mm_set1_epi8((char)0xC0);
    int64_t pos = 0;
    while (pos + 17 <= n && pos + 16 <= room) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + pos));
        const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + pos + 1));
        // Each byte as the lead of a code point of the pair, with the byte after it.
        const __m128i isLead = _mm_cmpeq_epi8(_mm_and_si128(a, xfe), pair);
        const __m128i nextIsContinuation = _mm_cmpeq_epi8(_mm_and_si128(b, xc0), x80);
        __m128i index = _mm_or_si128(_mm_and_si128(_mm_cmpeq_epi8(_mm_and_si128(a, one), one), x40), _mm_and_si128(b, x3f));
        // The table, sixteen entries a shuffle: an index moved below 16 by the row's start
        // selects (0x70 added keeps its low four bits); one of 16 and above saturates to 0x80
        // and up, which the shuffle turns to 0.
        __m128i t = _mm_setzero_si128();
        for (int r = 0; r < 8; r++) {
            t = _mm_or_si128(t, _mm_shuffle_epi8(rows[r], _mm_adds_epu8(index, x70)));
            index = _mm_sub_epi8(index, x10);
        }
        const __m128i leads = _mm_and_si128(_mm_and_si128(isLead, nextIsContinuation), _mm_cmplt_epi8(t, _mm_setzero_si128()));
        const __m128i continuations = _mm_slli_si128(leads, 1);
        // Plain ASCII: 0x20...0x7F (signed, so 0x80 and above are below 0x20), A-Z lowercased.
        const __m128i upper = _mm_cmplt_epi8(_mm_add_epi8(a, _mm_set1_epi8(0x3F)), _mm_set1_epi8(-102));
        const __m128i ascii = lowercase ? _mm_or_si128(a, _mm_and_si128(upper, _mm_set1_epi8(0x20))) : a;
        const unsigned plain = (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(a, _mm_set1_epi8(0x20))) ^ 0xFFFFu;
        const __m128i newLead = _mm_or_si128(pair, _mm_and_si128(_mm_cmpeq_epi8(_mm_and_si128(t, x40), x40), one));
        const __m128i newContinuation = _mm_slli_si128(_mm_or_si128(x80, _mm_and_si128(t, x3f)), 1);
        const __m128i folded = _mm_or_si128(_mm_andnot_si128(_mm_or_si128(leads, continuations), ascii),
                                            _mm_or_si128(_mm_and_si128(leads, newLead), _mm_and_si128(continuations, newContinuation)));
        _mm_storeu_si128((__m128i *)(void *)(out + pos), folded);
        const unsigned leadBits = (unsigned)_mm_movemask_epi8(leads);
        // A lead at byte 15 has its continuation in the next step: it is not done here.
        const unsigned done = plain | (leadBits & 0x7FFFu) | ((leadBits << 1) & 0xFFFFu);
        // A whole step moves on by sixteen without waiting for the count (the next loads then
        // depend on no compare); a step that stops short branches out.
        if (__builtin_expect(done != 0xFFFFu, 0)) {
            const unsigned k = (unsigned)__builtin_ctz(~done);
            pos += k;
            if (k != 15 || !(leadBits & 0x8000u)) break;
            continue;
        }
        pos += 16;
    }
    return pos;
}

/// Thirty-two bytes a step: the step of `cfold_pair_run_ssse3`, with the table's eight rows
/// chosen by a tree of blends on the index's bits 4 to 6 (rather than eight masks), and the
/// continuation bytes moved across the two halves of the register.
__attribute__((target("avx2")))
static int64_t cfold_pair_run_avx2(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets,
                                   uint8_t lead, int32_t lowercase) {
    __m256i rows[8];
    for (int r = 0; r < 8; r++) rows[r] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(targets + 16 * r)));
    const __m256i pair = _mm256_set1_epi8((char)(lead & 0xFE));
    const __m256i one = _mm256_set1_epi8(1), x3f = _mm256_set1_epi8(0x3F), x40 = _mm256_set1_epi8(0x40);
    const __m256i x80 = _mm256_set1_epi8((char)0x80), xfe = _mm256_set1_epi8((char)0xFE), xc0 = _mm256_set1_epi8((char)0xC0);
    int64_t pos = 0;
    while (pos + 33 <= n && pos + 32 <= room) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + pos + 1));
        const __m256i isLead = _mm256_cmpeq_epi8(_mm256_and_si256(a, xfe), pair);
        const __m256i nextIsContinuation = _mm256_cmpeq_epi8(_mm256_and_si256(b, xc0), x80);
        const __m256i index = _mm256_or_si256(_mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(a, one), one), x40),
                                              _mm256_and_si256(b, x3f));
        // Each row by the index's low four bits, then bit 4, 5 and 6 (moved to each byte's top
        // bit, which is what a blend reads) choose among them.
        const __m256i bit4 = _mm256_slli_epi16(index, 3), bit5 = _mm256_slli_epi16(index, 2), bit6 = _mm256_slli_epi16(index, 1);
        __m256i r01 = _mm256_blendv_epi8(_mm256_shuffle_epi8(rows[0], index), _mm256_shuffle_epi8(rows[1], index), bit4);
        __m256i r23 = _mm256_blendv_epi8(_mm256_shuffle_epi8(rows[2], index), _mm256_shuffle_epi8(rows[3], index), bit4);
        __m256i r45 = _mm256_blendv_epi8(_mm256_shuffle_epi8(rows[4], index), _mm256_shuffle_epi8(rows[5], index), bit4);
        __m256i r67 = _mm256_blendv_epi8(_mm256_shuffle_epi8(rows[6], index), _mm256_shuffle_epi8(rows[7], index), bit4);
        const __m256i t = _mm256_blendv_epi8(_mm256_blendv_epi8(r01, r23, bit5), _mm256_blendv_epi8(r45, r67, bit5), bit6);
        const __m256i leads = _mm256_and_si256(_mm256_and_si256(isLead, nextIsContinuation), _mm256_cmpgt_epi8(_mm256_setzero_si256(), t));
        // One byte later, across the halves: each byte with the one before it (0 before the first).
        const __m256i leadsBefore = _mm256_permute2x128_si256(leads, leads, 0x08);
        const __m256i continuations = _mm256_alignr_epi8(leads, leadsBefore, 15);
        const __m256i contBytes = _mm256_or_si256(x80, _mm256_and_si256(t, x3f));
        const __m256i newContinuation = _mm256_alignr_epi8(contBytes, _mm256_permute2x128_si256(contBytes, contBytes, 0x08), 15);
        const __m256i upper = _mm256_cmpgt_epi8(_mm256_set1_epi8(-102), _mm256_add_epi8(a, _mm256_set1_epi8(0x3F)));
        const __m256i ascii = lowercase ? _mm256_or_si256(a, _mm256_and_si256(upper, _mm256_set1_epi8(0x20))) : a;
        const uint32_t plain = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), a));
        const __m256i newLead = _mm256_or_si256(pair, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(t, x40), x40), one));
        const __m256i folded = _mm256_or_si256(_mm256_andnot_si256(_mm256_or_si256(leads, continuations), ascii),
                                               _mm256_or_si256(_mm256_and_si256(leads, newLead), _mm256_and_si256(continuations, newContinuation)));
        _mm256_storeu_si256((__m256i *)(void *)(out + pos), folded);
        const uint32_t leadBits = (uint32_t)_mm256_movemask_epi8(leads);
        const uint32_t done = plain | (leadBits & 0x7FFFFFFFu) | (leadBits << 1);
        if (__builtin_expect(done != 0xFFFFFFFFu, 0)) {
            const unsigned k = (unsigned)__builtin_ctz(~done);
            pos += k;
            if (k != 31 || !(leadBits & 0x80000000u)) return pos;
            continue;
        }
        pos += 32;
    }
    // The rest, fewer than 33 bytes, sixteen at a time.
    return pos + cfold_pair_run_ssse3(src + pos, n - pos, out + pos, room - pos, targets, lead, lowercase);
}

int32_t cfold_pair_run_level(void) {
    static int32_t known = -1;
    int32_t v = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (v >= 0) return v;
    unsigned a, b, c, d;
    v = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3)) {
        v = 1;
        // AVX2, and an operating system that saves the YMM registers.
        if ((c & bit_OSXSAVE) && (c & bit_AVX) && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2)) {
            unsigned lo, hi;
            __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            if ((lo & 6) == 6) v = 2;
        }
    }
    __atomic_store_n(&known, v, __ATOMIC_RELAXED);
    return v;
}

int64_t cfold_pair_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets,
                          uint8_t lead, int32_t lowercase) {
    switch (level < cfold_pair_run_level() ? level : cfold_pair_run_level()) {
    case 2: return cfold_pair_run_avx2(src, n, out, room, targets, lead, lowercase);
    case 1: return cfold_pair_run_ssse3(src, n, out, room, targets, lead, lowercase);
    default: return cfold_pair_run_portable(src, n, out, room, targets, lead, lowercase);
    }
}

int64_t cfold_pair_run(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets, uint8_t lead,
                       int32_t lowercase) {
    return cfold_pair_run_level() >= 2 ? cfold_pair_run_avx2(src, n, out, room, targets, lead, lowercase)
                                       : cfold_pair_run_ssse3(src, n, out, room, targets, lead, lowercase);
}

#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>

/// One bit in four for each byte of `v` (0xFF or 0x00 each): byte k is bits 4k...4k + 3, what
/// NEON has for SSE2's movemask.
static inline uint64_t cfold_nibbles(uint8x16_t v) {
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(v), 4)), 0);
}

/// The step of `cfold_pair_run_ssse3` with NEON (every AArch64 processor): the 128-byte table in
/// two lookups of 64 bytes (an index out of a lookup's range gives 0).
static int64_t cfold_pair_run_neon(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets,
                                   uint8_t lead, int32_t lowercase) {
    const uint8x16x4_t low = {{vld1q_u8(targets), vld1q_u8(targets + 16), vld1q_u8(targets + 32), vld1q_u8(targets + 48)}};
    const uint8x16x4_t high = {{vld1q_u8(targets + 64), vld1q_u8(targets + 80), vld1q_u8(targets + 96), vld1q_u8(targets + 112)}};
    const uint8x16_t pair = vdupq_n_u8(lead & 0xFE), zero = vdupq_n_u8(0);
    static const uint8_t notLast[16] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0};
    const uint8x16_t allButLast = vld1q_u8(notLast);
    int64_t pos = 0;
    while (pos + 17 <= n && pos + 16 <= room) {
        const uint8x16_t a = vld1q_u8(src + pos), b = vld1q_u8(src + pos + 1);
        const uint8x16_t isLead = vceqq_u8(vandq_u8(a, vdupq_n_u8(0xFE)), pair);
        const uint8x16_t nextIsContinuation = vceqq_u8(vandq_u8(b, vdupq_n_u8(0xC0)), vdupq_n_u8(0x80));
        const uint8x16_t index = vorrq_u8(vshlq_n_u8(vandq_u8(a, vdupq_n_u8(1)), 6), vandq_u8(b, vdupq_n_u8(0x3F)));
        const uint8x16_t t = vorrq_u8(vqtbl4q_u8(low, index), vqtbl4q_u8(high, vsubq_u8(index, vdupq_n_u8(64))));
        const uint8x16_t leads = vandq_u8(vandq_u8(isLead, nextIsContinuation), vcltzq_s8(vreinterpretq_s8_u8(t)));
        const uint8x16_t continuations = vextq_u8(zero, leads, 15);
        const uint8x16_t upper = vcltq_u8(vsubq_u8(a, vdupq_n_u8('A')), vdupq_n_u8(26));
        const uint8x16_t ascii = lowercase ? vorrq_u8(a, vandq_u8(upper, vdupq_n_u8(0x20))) : a;
        const uint8x16_t plain = vandq_u8(vcgeq_u8(a, vdupq_n_u8(0x20)), vcltq_u8(a, vdupq_n_u8(0x80)));
        const uint8x16_t newLead = vorrq_u8(pair, vshrq_n_u8(vandq_u8(t, vdupq_n_u8(0x40)), 6));
        const uint8x16_t newContinuation = vextq_u8(zero, vorrq_u8(vdupq_n_u8(0x80), vandq_u8(t, vdupq_n_u8(0x3F))), 15);
        vst1q_u8(out + pos, vbslq_u8(leads, newLead, vbslq_u8(continuations, newContinuation, ascii)));
        // A lead at byte 15 has its continuation in the next step: it is not done here.
        const uint64_t done = cfold_nibbles(vorrq_u8(vorrq_u8(plain, vandq_u8(leads, allButLast)), continuations));
        if (__builtin_expect(done != ~(uint64_t)0, 0)) {
            const unsigned k = (unsigned)__builtin_ctzll(~done) >> 2;
            pos += k;
            if (k != 15 || !vgetq_lane_u8(leads, 15)) break;
            continue;
        }
        pos += 16;
    }
    return pos;
}

int32_t cfold_pair_run_level(void) { return 1; }

int64_t cfold_pair_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets,
                          uint8_t lead, int32_t lowercase) {
    return level >= 1 ? cfold_pair_run_neon(src, n, out, room, targets, lead, lowercase)
                      : cfold_pair_run_portable(src, n, out, room, targets, lead, lowercase);
}

int64_t cfold_pair_run(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets, uint8_t lead,
                       int32_t lowercase) {
    return cfold_pair_run_neon(src, n, out, room, targets, lead, lowercase);
}

#else

int32_t cfold_pair_run_level(void) { return 0; }

int64_t cfold_pair_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets,
                          uint8_t lead, int32_t lowercase) {
    (void)level;
    return cfold_pair_run_portable(src, n, out, room, targets, lead, lowercase);
}

int64_t cfold_pair_run(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets, uint8_t lead,
                       int32_t lowercase) {
    (void)src; (void)n; (void)out; (void)room; (void)targets; (void)lead; (void)lowercase;
    return 0;
}

#endif
