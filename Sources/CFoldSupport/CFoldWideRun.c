// cfold_wide_run (include/CFoldWideRun.h): the AVX2 steps and the portable one.
#include "CFoldWideRun.h"
#include "CFoldPairRun.h"

/// Folds the one code point at `src[pos]` into `out` at `*o`, moving `*o` past its fold: how
/// many bytes it read (1 or 3), or 0 when the step stops before it.
__attribute__((always_inline)) static inline int64_t cfold_wide_one(const uint8_t *src, int64_t pos, int64_t n, uint8_t *out, int64_t *o, int64_t room,
                                     const cfold_wide_tables *tables, const uint8_t *kana) {
    const uint8_t a = src[pos];
    if (a < 0x80) {
        if (a < 0x20 || *o + 1 > room) return 0;
        out[*o] = tables->lowercase && (uint8_t)(a - 'A') < 26 ? (uint8_t)(a + 0x20) : a;
        *o += 1;
        return 1;
    }
    if ((a & 0xF0) != 0xE0 || pos + 3 > n) return 0;
    const uint8_t b = src[pos + 1], c = src[pos + 2];
    if ((b & 0xC0) != 0x80 || (c & 0xC0) != 0x80) return 0;
    const uint32_t v = (uint32_t)(a & 0x0F) << 12 | (uint32_t)(b & 0x3F) << 6 | (uint32_t)(c & 0x3F);
    if (v < 0x800 || (v & 0xF800) == 0xD800) return 0;  // overlong, or a surrogate
    const uint32_t f = cfold_wide_table_fold(v, kana, tables->blocks);
    if (f) {
        if (*o + 3 > room) return 0;
        out[*o] = (uint8_t)(0xE0 | (f >> 12));
        out[*o + 1] = (uint8_t)(0x80 | ((f >> 6) & 0x3F));
        out[*o + 2] = (uint8_t)(0x80 | (f & 0x3F));
        *o += 3;
        return 3;
    }
    const uint64_t q = __atomic_load_n(&tables->quick[v], __ATOMIC_RELAXED);
    if (!(q >> 63)) {
        const uint32_t word = tables->voiced ? __atomic_load_n(&tables->voiced[v], __ATOMIC_RELAXED) : 0;
        if ((word & CFOLD_QUICK_VOICED_MASK) != CFOLD_QUICK_VOICED || *o + 6 > room) return 0;
        cfold_quick_voiced_bytes(word, out + *o);
        *o += 6;
        return 3;
    }
    const int64_t count = (int64_t)((q >> 32) & 0xF);
    if (count > 4 || *o + count > room) return 0;
    for (int64_t k = 0; k < count; k++) out[*o + k] = (uint8_t)(q >> (8 * k));
    *o += count;
    return 3;
}

/// Whether the run at `src` is worth the step: no two-byte lead (C0...DF) and no halfwidth or
/// fullwidth small letter (EF BD, EF BE) in its first `CFOLD_WIDE_LOOKAHEAD` bytes.
static int cfold_wide_pays_portable(const uint8_t *src, int64_t n) {
    const int64_t end = n < CFOLD_WIDE_LOOKAHEAD ? n : CFOLD_WIDE_LOOKAHEAD;
    for (int64_t k = 0; k < end; k++) {
        if ((uint8_t)(src[k] - 0xC0) < 0x20) return 0;
        if (src[k] == 0xEF && k + 1 < n && (uint8_t)(src[k + 1] - 0xBD) < 2) return 0;
    }
    return 1;
}

int64_t cfold_wide_run_portable(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                const cfold_wide_tables *tables) {
    int64_t pos = 0, o = 0;
    *written = 0;
    if (!cfold_wide_pays_portable(src, n)) return 0;
    while (pos < n) {
        const int64_t l = cfold_wide_one(src, pos, n, out, &o, room, tables, tables->kana);
        if (!l) break;
        pos += l;
    }
    *written = o;
    return pos;
}

#if defined(__x86_64__)
#include <immintrin.h>
#include <cpuid.h>
#include <string.h>

/// The kana table of a fold that has none yet (it folds no kana): what the vector steps read then.
static const uint8_t cfold_wide_no_kana[CFOLD_WIDE_KANA_BYTES];

/// `x` moved `s` bytes later across the two halves (1 or 2), zeros before.
#define CFOLD_LATER(x, s) _mm256_alignr_epi8((x), _mm256_permute2x128_si256((x), (x), 0x08), 16 - (s))

/// `cfold_wide_pays_portable` 32 bytes at once on a text of more than `CFOLD_WIDE_LOOKAHEAD`
/// bytes (its first 129 are read).
__attribute__((target("avx2"), always_inline))
static inline int cfold_wide_pays_avx2_long(const uint8_t *src) {
    const __m256i xc0 = _mm256_set1_epi8((char)0xC0), x1f = _mm256_set1_epi8(0x1F);
    const __m256i xef = _mm256_set1_epi8((char)0xEF), xbd = _mm256_set1_epi8((char)0xBD), x01 = _mm256_set1_epi8(1);
    __m256i bad = _mm256_setzero_si256();
    for (int k = 0; k < CFOLD_WIDE_LOOKAHEAD; k += 32) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + k));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + k + 1));
        // a - C0 at most 1F (unsigned: the minimum with 1F is itself), and EF followed by BD or BE.
        const __m256i d = _mm256_sub_epi8(a, xc0);
        const __m256i lead2 = _mm256_cmpeq_epi8(_mm256_min_epu8(d, x1f), d);
        const __m256i e = _mm256_sub_epi8(b, xbd);
        const __m256i small = _mm256_and_si256(_mm256_cmpeq_epi8(a, xef), _mm256_cmpeq_epi8(_mm256_min_epu8(e, x01), e));
        bad = _mm256_or_si256(bad, _mm256_or_si256(lead2, small));
    }
    return _mm256_testz_si256(bad, bad);
}

/// `cfold_wide_pays_portable` 32 bytes at once (the bytes from `n` on are not read): a short text
/// (a title, a name: the whole of it) over a copy with zeros after it, which neither test takes.
__attribute__((target("avx2")))
static int cfold_wide_pays_avx2(const uint8_t *src, int64_t n) {
    if (n > CFOLD_WIDE_LOOKAHEAD) return cfold_wide_pays_avx2_long(src);
    uint8_t copy[CFOLD_WIDE_LOOKAHEAD + 32] = {0};
    memcpy(copy, src, (size_t)n);
    return cfold_wide_pays_avx2_long(copy);
}

/// The AVX2 steps from `pos` and `o` (read and written so far) to the end of the run.
__attribute__((target("avx2"), noinline))
static int64_t cfold_wide_run_avx2_from(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                        const cfold_wide_tables *tables, int64_t pos, int64_t o) {
    const uint8_t *kana = tables->kana ? tables->kana : cfold_wide_no_kana;
    // The pages of 256 code points whose every code point folds to itself (the ideographs' once
    // they are built): 256 bits, in two rows of sixteen bytes.
    const __m256i pages0 = _mm256_broadcastsi128_si256(_mm_set_epi64x((long long)__atomic_load_n(&tables->pages[1], __ATOMIC_RELAXED),
                                                                      (long long)__atomic_load_n(&tables->pages[0], __ATOMIC_RELAXED)));
    const __m256i pages1 = _mm256_broadcastsi128_si256(_mm_set_epi64x((long long)__atomic_load_n(&tables->pages[3], __ATOMIC_RELAXED),
                                                                      (long long)__atomic_load_n(&tables->pages[2], __ATOMIC_RELAXED)));
#define CFOLD_KANA_ROW(offset) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(kana + (offset))))
    const __m256i kanaDeltas = CFOLD_KANA_ROW(CFOLD_WIDE_KANA_DELTAS);
    const __m256i kanaFolds0 = CFOLD_KANA_ROW(CFOLD_WIDE_KANA_FOLDS), kanaFolds1 = CFOLD_KANA_ROW(CFOLD_WIDE_KANA_FOLDS + 16);
    const __m256i kanaMoves0 = CFOLD_KANA_ROW(CFOLD_WIDE_KANA_MOVES), kanaMoves1 = CFOLD_KANA_ROW(CFOLD_WIDE_KANA_MOVES + 16);
#undef CFOLD_KANA_ROW
    // 1 << k for k = 0...7 (and again), what a byte of a bit table is tested with.
    const __m256i bitOf = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
                                           1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
    const __m256i x80 = _mm256_set1_epi8((char)0x80), xc0 = _mm256_set1_epi8((char)0xC0), xf0 = _mm256_set1_epi8((char)0xF0);
    const __m256i xe0 = _mm256_set1_epi8((char)0xE0), xe3 = _mm256_set1_epi8((char)0xE3), xfc = _mm256_set1_epi8((char)0xFC);
    const __m256i x07 = _mm256_set1_epi8(7), x0e = _mm256_set1_epi8(0x0E), x38 = _mm256_set1_epi8(0x38), x3f = _mm256_set1_epi8(0x3F);
    const __m256i x30 = _mm256_set1_epi8(0x30), x20 = _mm256_set1_epi8(0x20);
    const __m256i one = _mm256_set1_epi8(1), two = _mm256_set1_epi8(2), x03 = _mm256_set1_epi8(3), x08 = _mm256_set1_epi8(8);
    const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi8(-1);
    const int32_t lowercase = tables->lowercase;
    for (;;) {
        // Vector steps while 34 bytes are left to read and 32 to write; then the code point they
        // stopped before (or the last bytes), one by one, and the vector steps again.
        while (pos + 34 <= n && o + 32 <= room) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
            const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + pos + 1));
            const __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(src + pos + 2));
            // Each byte as the lead of a three-byte code point, with the two after it.
            const __m256i isLead = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(a, xf0), xe0),
                                                    _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(b, xc0), x80),
                                                                     _mm256_cmpeq_epi8(_mm256_and_si256(c, xc0), x80)));
            // Its page, (a & 0x0F) << 4 | (b & 0x3C) >> 2: byte (a & 0x0F) << 1 | (b & 0x20) >> 5
            // of the bits (its row by a & 8), bit (b & 0x1C) >> 2. A page where some code
            // point changes has its blocks of 64 read code point by code point, below.
            const __m256i pageByte = _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(a, 1), x0e),
                                                     _mm256_and_si256(_mm256_srli_epi16(b, 5), one));
            const __m256i pageBits = _mm256_blendv_epi8(_mm256_shuffle_epi8(pages0, pageByte), _mm256_shuffle_epi8(pages1, pageByte),
                                                        _mm256_slli_epi16(a, 4));
            const __m256i pageFolds = _mm256_and_si256(pageBits, _mm256_shuffle_epi8(bitOf, _mm256_and_si256(_mm256_srli_epi16(b, 2), x07)));
            // U+3000...U+30FF (E3 80...83), k = (b & 3) << 6 | c & 0x3F: byte k >> 3 of a bit
            // table is (b & 3) << 3 | (c & 0x38) >> 3 (its half by b & 2), bit c & 7; its row
            // k >> 4 is (b & 3) << 2 | (c & 0x30) >> 4.
            const __m256i isKana = _mm256_and_si256(_mm256_cmpeq_epi8(a, xe3), _mm256_cmpeq_epi8(_mm256_and_si256(b, xfc), x80));
            __m256i leads = _mm256_andnot_si256(isKana, _mm256_andnot_si256(_mm256_cmpeq_epi8(pageFolds, zero), isLead));
            // A-Z (0x41...0x5A: 0x41 + 0x3F wraps to -128) to a-z when asked.
            const __m256i upper = _mm256_cmpgt_epi8(_mm256_set1_epi8(-102), _mm256_add_epi8(a, x3f));
            __m256i folded = lowercase ? _mm256_or_si256(a, _mm256_and_si256(upper, x20)) : a;
            if (!_mm256_testz_si256(isKana, isLead)) {
                const __m256i byteIndex = _mm256_or_si256(_mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(b, one), one), x08),
                                                          _mm256_and_si256(_mm256_srli_epi16(_mm256_and_si256(c, x38), 3), x07));
                const __m256i secondHalf = _mm256_cmpeq_epi8(_mm256_and_si256(b, two), two);
                const __m256i bit = _mm256_shuffle_epi8(bitOf, _mm256_and_si256(c, x07));
                const __m256i foldsByte = _mm256_blendv_epi8(_mm256_shuffle_epi8(kanaFolds0, byteIndex),
                                                             _mm256_shuffle_epi8(kanaFolds1, byteIndex), secondHalf);
                const __m256i movesByte = _mm256_blendv_epi8(_mm256_shuffle_epi8(kanaMoves0, byteIndex),
                                                             _mm256_shuffle_epi8(kanaMoves1, byteIndex), secondHalf);
                const __m256i kanaLeads = _mm256_and_si256(_mm256_and_si256(isKana, isLead),
                                                           _mm256_xor_si256(_mm256_cmpeq_epi8(_mm256_and_si256(foldsByte, bit), zero), ones));
                const __m256i moves = _mm256_xor_si256(_mm256_cmpeq_epi8(_mm256_and_si256(movesByte, bit), zero), ones);
                const __m256i row = _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(b, x03), 2),
                                                    _mm256_and_si256(_mm256_srli_epi16(_mm256_and_si256(c, x30), 4), x03));
                const __m256i delta = _mm256_and_si256(_mm256_shuffle_epi8(kanaDeltas, row), moves);
                // k + delta: its top two bits and its last six, in the fold's second and
                // third bytes.
                const __m256i k = _mm256_add_epi8(_mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(b, x03), 6), _mm256_and_si256(c, x3f)), delta);
                const __m256i second = _mm256_or_si256(x80, _mm256_and_si256(_mm256_srli_epi16(k, 6), x03));
                const __m256i third = _mm256_or_si256(x80, _mm256_and_si256(k, x3f));
                folded = _mm256_blendv_epi8(folded, CFOLD_LATER(second, 1), CFOLD_LATER(kanaLeads, 1));
                folded = _mm256_blendv_epi8(folded, CFOLD_LATER(third, 2), CFOLD_LATER(kanaLeads, 2));
                leads = _mm256_or_si256(leads, kanaLeads);
            }
            _mm256_storeu_si256((__m256i *)(void *)(out + o), folded);
            // Plain ASCII: 0x20...0x7F (signed, the bytes from 0x80 are below 0x20).
            const uint32_t plain = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(x20, a));
            const uint32_t leadBits = (uint32_t)_mm256_movemask_epi8(leads);
            // A lead at byte 30 or 31 has its last bytes in the next step, which starts at it:
            // the step ends before it (without a branch, since in text of three-byte code
            // points two steps in three end so).
            const uint32_t whole = leadBits & 0x3FFFFFFFu;
            const uint32_t pending = leadBits & 0xC0000000u;
            const uint32_t done = plain | whole | (whole << 1) | (whole << 2) | pending | (pending << 1);
            if (__builtin_expect(done == 0xFFFFFFFFu, 1)) {
                // Where the next step starts, from the two bytes alone (when every byte is
                // done, a three-byte lead at byte 30 or 31 is the pending one): the next
                // loads then wait for two byte loads, not for this step's vector work.
                // No branch: where a step ends is as random as the text (a branch there was
                // mispredicted about every other step in Japanese text, measured).
                const uint32_t at30 = (src[pos + 30] & 0xF0) == 0xE0, at31 = (src[pos + 31] & 0xF0) == 0xE0;
                const int64_t advance = 32 - (int64_t)(at30 << 1 | (at31 & ~at30));
                pos += advance;
                o += advance;
                continue;
            }
            const unsigned stop = (unsigned)__builtin_ctz(~done);
            pos += stop;
            o += stop;
            // A step that folded nothing: code points the fold loop folds one by one as fast
            // as this would (fullwidth Latin) or must see itself: back to it.
            if (stop == 0) goto end;
            break;
        }
        if (pos >= n) break;
        const int64_t l = cfold_wide_one(src, pos, n, out, &o, room, tables, tables->kana);
        if (!l) break;
        pos += l;
    }
end:
    *written = o;
    return pos;
}

__attribute__((target("avx2")))
static int64_t cfold_wide_run_avx2(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                   const cfold_wide_tables *tables) {
    *written = 0;
    if (!cfold_wide_pays_avx2(src, n)) return 0;
    return cfold_wide_run_avx2_from(src, n, out, room, written, tables, 0, 0);
}

/// Stores the first `read` bytes of `folded` at `out` without those of `drops` (one
/// `vpcompressb`): how many it kept. All 64 bytes are stored, or only `read` when `masked` (a
/// text's last step, whose room may end there).
__attribute__((target("avx2,avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")))
static inline int64_t cfold_wide_compact(uint8_t *out, __m512i folded, uint64_t drops, int64_t read, int masked) {
    const uint64_t stored = read == 64 ? ~0ull : (1ull << read) - 1;
    const uint64_t keep = ~drops & stored;
    const __m512i kept = _mm512_maskz_compress_epi8(keep, folded);
    if (masked) _mm512_mask_storeu_epi8(out, stored, kept);
    else _mm512_storeu_si512((void *)out, kept);
    return (int64_t)__builtin_popcountll(keep);
}

/// `cfold_wide_pays_portable` on a text of at most `CFOLD_WIDE_LOOKAHEAD` bytes, all of it, in two
/// masked 64-byte steps (the bytes from `n` on are not read), where the AVX2 steps copy it first.
/// (A longer text the AVX-512 steps look at with `cfold_wide_pays_avx2_long`.)
__attribute__((target("avx2,avx512f,avx512bw")))
static inline int cfold_wide_pays_avx512(const uint8_t *src, int64_t n) {
    uint64_t bad = 0;
    for (int64_t k = 0; k < n; k += 64) {
        const int64_t left = n - k;
        const uint64_t within = left >= 64 ? ~0ull : (1ull << left) - 1;
        // The byte after each, where the text has it.
        const uint64_t withinNext = left > 64 ? ~0ull : within >> 1;
        const __m512i a = _mm512_maskz_loadu_epi8(within, src + k);
        const __m512i b = _mm512_maskz_loadu_epi8(withinNext, src + k + 1);
        bad |= _mm512_mask_cmplt_epu8_mask(within, _mm512_sub_epi8(a, _mm512_set1_epi8((char)0xC0)), _mm512_set1_epi8(0x20))
            | _mm512_mask_cmplt_epu8_mask(_mm512_mask_cmpeq_epi8_mask(withinNext, a, _mm512_set1_epi8((char)0xEF)),
                                          _mm512_sub_epi8(b, _mm512_set1_epi8((char)0xBD)), _mm512_set1_epi8(2));
    }
    return bad == 0;
}

/// The steps of `cfold_wide_run_avx2` 64 bytes at a time with AVX-512 (F, BW, VBMI and VBMI2): the
/// tables in registers whole (`vpermb` reads 64 bytes where `pshufb` reads 16), the bits in mask
/// registers, the kana's second and third bytes put after their lead by one `vpermb` each (the
/// AVX2 steps keep their tables on the stack and move bytes across halves in two instructions).
/// The text's last bytes (fewer than 66) go in one step of masked loads and stores, not one by
/// one (the AVX2 steps leave up to 33). Measured on japanese.txt, the step alone: 2,400-2,900
/// MB/s against 1,360 for the AVX2 steps (2,010 with the last bytes left to them). Where the
/// room is short of the text, the AVX2 steps take over.
__attribute__((target("avx2,avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")))
static int64_t cfold_wide_run_avx512(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                     const cfold_wide_tables *tables) {
    const uint8_t *kana = tables->kana ? tables->kana : cfold_wide_no_kana;
    // The page bits (256, in 32 bytes: byte p >> 3, bit p & 7), the kana table's deltas and folds
    // (its first 48 bytes: deltas at 0, folds at 16) and its moves (32 bytes).
    const __m512i pages = _mm512_castsi256_si512(_mm256_setr_epi64x((long long)__atomic_load_n(&tables->pages[0], __ATOMIC_RELAXED),
                                                                   (long long)__atomic_load_n(&tables->pages[1], __ATOMIC_RELAXED),
                                                                   (long long)__atomic_load_n(&tables->pages[2], __ATOMIC_RELAXED),
                                                                   (long long)__atomic_load_n(&tables->pages[3], __ATOMIC_RELAXED)));
    const __m512i kanaTable = _mm512_maskz_loadu_epi8(0x0000FFFFFFFFFFFFull, kana);
    const __m512i kanaMoves = _mm512_maskz_loadu_epi8(0x00000000FFFFFFFFull, kana + CFOLD_WIDE_KANA_MOVES);
    // The bits of U+3000...U+303F that fold to themselves (the folds of the kana table's first row
    // of eight bytes without its moves), in each 16-byte lane.
    uint64_t punctWord, punctMoves;
    memcpy(&punctWord, kana + CFOLD_WIDE_KANA_FOLDS, 8);
    memcpy(&punctMoves, kana + CFOLD_WIDE_KANA_MOVES, 8);
    const __m512i punctFolds = _mm512_set1_epi64((long long)(punctWord & ~punctMoves));
    const __m512i bitOf = _mm512_set1_epi64(0x8040201008040201ll);
    // Each byte's index moved one and two bytes later: what puts a kana's second and third bytes
    // after its lead.
    const __m512i later1 = _mm512_sub_epi8(_mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44,
                                                           43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24,
                                                           23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                           _mm512_set1_epi8(1));
    const __m512i later2 = _mm512_sub_epi8(later1, _mm512_set1_epi8(1));
    const __m512i x80 = _mm512_set1_epi8((char)0x80), xc0 = _mm512_set1_epi8((char)0xC0), xf0 = _mm512_set1_epi8((char)0xF0);
    const __m512i xe0 = _mm512_set1_epi8((char)0xE0), xe3 = _mm512_set1_epi8((char)0xE3), xfc = _mm512_set1_epi8((char)0xFC);
    const __m512i x01 = _mm512_set1_epi8(1), x03 = _mm512_set1_epi8(3), x07 = _mm512_set1_epi8(7), x10 = _mm512_set1_epi8(0x10);
    const __m512i x1e = _mm512_set1_epi8(0x1E), x1f = _mm512_set1_epi8(0x1F), x3f = _mm512_set1_epi8(0x3F), x20 = _mm512_set1_epi8(0x20);
    const __m512i xA = _mm512_set1_epi8('A'), x1a = _mm512_set1_epi8(26);
    const __m512i xef = _mm512_set1_epi8((char)0xEF), xfe = _mm512_set1_epi8((char)0xFE), xbc = _mm512_set1_epi8((char)0xBC);
    const __m512i x60 = _mm512_set1_epi8(0x60);
    static const uint64_t noFullwidth[2];
    const uint64_t *fullwidthWords = tables->fullwidth ? tables->fullwidth : noFullwidth;
    const __m512i fullwidthBits = _mm512_castsi128_si512(_mm_set_epi64x((long long)__atomic_load_n(&fullwidthWords[1], __ATOMIC_RELAXED),
                                                                        (long long)__atomic_load_n(&fullwidthWords[0], __ATOMIC_RELAXED)));
    const int32_t lowercase = tables->lowercase;
    int64_t pos = 0, o = 0;
    *written = 0;
    if (!(n > CFOLD_WIDE_LOOKAHEAD ? cfold_wide_pays_avx2_long(src) : cfold_wide_pays_avx512(src, n))) return 0;
    for (;;) {
        int stopped = 0;
        while (pos < n) {
            const int64_t left = n - pos;
            // Where fewer than 66 bytes are left, or 64 to write: one step of masked loads (the
            // bytes after the text read as 0, which no lead takes as its own) and masked stores,
            // where the room holds the rest of the text; else the AVX2 steps (a text whose fold
            // outgrew its room).
            const int full = left >= 66 && o + 64 <= room;
            if (!full && o + left > room) return cfold_wide_run_avx2_from(src, n, out, room, written, tables, pos, o);
            __m512i a, b, c;
            uint64_t within = ~0ull;
            if (__builtin_expect(full, 1)) {
                a = _mm512_loadu_si512((const void *)(src + pos));
                b = _mm512_loadu_si512((const void *)(src + pos + 1));
                c = _mm512_loadu_si512((const void *)(src + pos + 2));
            } else {
                within = left >= 64 ? ~0ull : (1ull << left) - 1;
                a = _mm512_maskz_loadu_epi8(within, src + pos);
                b = _mm512_maskz_loadu_epi8(within >> 1, src + pos + 1);
                c = _mm512_maskz_loadu_epi8(within >> 2, src + pos + 2);
            }
            // Each byte as the lead of a three-byte code point, with the two after it.
            const __mmask64 isLead = _mm512_mask_cmpeq_epi8_mask(
                _mm512_mask_cmpeq_epi8_mask(_mm512_cmpeq_epi8_mask(_mm512_and_si512(a, xf0), xe0), _mm512_and_si512(b, xc0), x80),
                _mm512_and_si512(c, xc0), x80);
            // Its page (a & 0x0F) << 4 | (b & 0x3C) >> 2: byte (a & 0x0F) << 1 | (b & 0x20) >> 5,
            // bit (b & 0x1C) >> 2.
            const __m512i pageByte = _mm512_or_si512(_mm512_and_si512(_mm512_add_epi8(a, a), x1e),
                                                     _mm512_and_si512(_mm512_srli_epi16(b, 5), x01));
            const __mmask64 pageFolds = _mm512_test_epi8_mask(_mm512_permutexvar_epi8(pageByte, pages),
                                                              _mm512_shuffle_epi8(bitOf, _mm512_and_si512(_mm512_srli_epi16(b, 2), x07)));
            const __mmask64 isKana = _mm512_mask_cmpeq_epi8_mask(_mm512_cmpeq_epi8_mask(a, xe3), _mm512_and_si512(b, xfc), x80) & isLead;
            __mmask64 leads = isLead & pageFolds & ~isKana;
            __m512i folded = lowercase ? _mm512_mask_add_epi8(a, _mm512_cmplt_epu8_mask(_mm512_sub_epi8(a, xA), x1a), a, x20) : a;
            // The kana's step where the step has kana (E3 81...83 xx); else, on every other step,
            // only CJK punctuation (U+3000...U+303F: E3 80 xx, the 、 and 。 of Chinese) that
            // folds to itself: its bit of the kana table's first eight bytes of folds without
            // moves, byte (c & 0x38) >> 3, bit c & 7. So the branch goes one way on Japanese text
            // (kana in nearly every step) and the other on Chinese (none); a branch on any of
            // U+3000...U+30FF goes both ways there, a 、 or 。 coming in one step of five
            // (Benchmarks/README, "CJK punctuation apart from the kana").
            const __mmask64 isPunct = _mm512_mask_cmpeq_epi8_mask(isKana, b, x80);
            if (isKana & ~isPunct) {
                // k = (b & 3) << 6 | c & 0x3F: its row k >> 4 (the delta's byte), byte 16 + k >> 3
                // of the folds and k >> 3 of the moves, bit c & 7.
                const __m512i k = _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(b, x03), 6), _mm512_and_si512(c, x3f));
                const __m512i k3 = _mm512_and_si512(_mm512_srli_epi16(k, 3), x1f);
                const __m512i bit = _mm512_shuffle_epi8(bitOf, _mm512_and_si512(c, x07));
                const __mmask64 kanaLeads = _mm512_mask_test_epi8_mask(isKana, _mm512_permutexvar_epi8(_mm512_add_epi8(k3, x10), kanaTable), bit);
                const __mmask64 moves = _mm512_test_epi8_mask(_mm512_permutexvar_epi8(k3, kanaMoves), bit);
                const __m512i delta = _mm512_maskz_permutexvar_epi8(moves, _mm512_and_si512(_mm512_srli_epi16(k, 4), _mm512_set1_epi8(0x0F)),
                                                                    kanaTable);
                const __m512i moved = _mm512_add_epi8(k, delta);
                const __m512i second = _mm512_or_si512(x80, _mm512_and_si512(_mm512_srli_epi16(moved, 6), x03));
                const __m512i third = _mm512_or_si512(x80, _mm512_and_si512(moved, x3f));
                folded = _mm512_mask_permutexvar_epi8(folded, kanaLeads << 1, later1, second);
                folded = _mm512_mask_permutexvar_epi8(folded, kanaLeads << 2, later2, third);
                leads |= kanaLeads;
            } else {
                leads |= _mm512_mask_test_epi8_mask(isPunct, _mm512_shuffle_epi8(punctFolds, _mm512_and_si512(_mm512_srli_epi16(c, 3), x07)),
                                                    _mm512_shuffle_epi8(bitOf, _mm512_and_si512(c, x07)));
            }
            // Fullwidth forms of ASCII (U+FF01...U+FF5E: EF BC or EF BD) that the tables fold to
            // their byte (the fullwidth comma and colon of Chinese text): the byte at the lead, the
            // two bytes after it dropped, below. U+FF00 + k, k = (b & 1) << 6 | c & 0x3F: byte
            // (b & 1) << 3 | (c & 0x38) >> 3 of the bits, bit c & 7; its byte, k + 0x20, is
            // c - 0x60 after BC and c - 0x20 after BD.
            uint64_t drops = 0;
            const __mmask64 isFullwidth = _mm512_mask_cmpeq_epi8_mask(_mm512_mask_cmpeq_epi8_mask(isLead, a, xef), _mm512_and_si512(b, xfe), xbc);
            if (isFullwidth) {
                const __m512i byteIndex = _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(b, x01), 3), _mm512_and_si512(_mm512_srli_epi16(c, 3), x07));
                const __mmask64 fullwidth = _mm512_mask_test_epi8_mask(isFullwidth, _mm512_permutexvar_epi8(byteIndex, fullwidthBits),
                                                                       _mm512_shuffle_epi8(bitOf, _mm512_and_si512(c, x07)));
                __m512i ascii = _mm512_add_epi8(_mm512_sub_epi8(c, x60), _mm512_slli_epi16(_mm512_and_si512(b, x01), 6));
                if (lowercase) ascii = _mm512_mask_add_epi8(ascii, _mm512_cmplt_epu8_mask(_mm512_sub_epi8(ascii, xA), x1a), ascii, x20);
                folded = _mm512_mask_mov_epi8(folded, fullwidth, ascii);
                leads |= fullwidth;
                const uint64_t whole = fullwidth & 0x3FFFFFFFFFFFFFFFull;
                drops = whole << 1 | whole << 2;
            }
            if (__builtin_expect(!full, 0)) {
                // The last step: no lead at 62 or 63, whose last bytes are not in it; the bytes
                // up to the first not done (all, when it is `left`, or 64 of 65), stored without
                // the dropped ones, masked.
                leads &= 0x3FFFFFFFFFFFFFFFull;
                const uint64_t plain = _mm512_cmpge_epi8_mask(a, x20);
                const uint64_t done = (plain | leads | (leads << 1) | (leads << 2)) & within;
                const int64_t read = done == within ? (left < 64 ? left : 64) : (int64_t)__builtin_ctzll(~done);
                o += cfold_wide_compact(out + o, folded, drops, read, 1);
                pos += read;
                if (read == 0) goto end;
                if (done == within) continue;
                stopped = 1;
                break;
            }
            _mm512_storeu_si512((void *)(out + o), folded);
            // Plain ASCII: 0x20...0x7F (signed, the bytes from 0x80 are below 0x20).
            const uint64_t plain = _mm512_cmpge_epi8_mask(a, x20);
            const uint64_t whole = leads & 0x3FFFFFFFFFFFFFFFull, pending = leads & 0xC000000000000000ull;
            const uint64_t done = plain | whole | (whole << 1) | (whole << 2) | pending | (pending << 1);
            if (__builtin_expect(done == ~0ull, 1)) {
                const uint32_t at62 = (src[pos + 62] & 0xF0) == 0xE0, at63 = (src[pos + 63] & 0xF0) == 0xE0;
                const int64_t advance = 64 - (int64_t)(at62 << 1 | (at63 & ~at62));
                pos += advance;
                o += __builtin_expect(drops != 0, 0) ? cfold_wide_compact(out + o, folded, drops, advance, 0) : advance;
                continue;
            }
            // A lead before the first byte not done has its two bytes before it too.
            const int64_t stop = (int64_t)__builtin_ctzll(~done);
            pos += stop;
            o += drops ? cfold_wide_compact(out + o, folded, drops, stop, 0) : stop;
            if (stop == 0) goto end;
            stopped = 1;
            break;
        }
        if (!stopped) break;
        const int64_t l = cfold_wide_one(src, pos, n, out, &o, room, tables, tables->kana);
        if (!l) break;
        pos += l;
    }
end:
    *written = o;
    return pos;
}

int32_t cfold_wide_run_level(void) {
    static int32_t known = -1;
    int32_t v = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (v >= 0) return v;
    v = cfold_pair_run_level() >= 2 ? 2 : 0;
    unsigned a, b, c, d;
    // AVX-512 F, BW, VBMI and VBMI2, and an operating system that saves the mask and ZMM registers.
    if (v == 2 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX512F) && (b & bit_AVX512BW) && (c & bit_AVX512VBMI)
        && (c & bit_AVX512VBMI2)) {
        unsigned lo, hi;
        __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        if ((lo & 0xE6) == 0xE6) v = 3;
    }
    __atomic_store_n(&known, v, __ATOMIC_RELAXED);
    return v;
}

int64_t cfold_wide_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                          const cfold_wide_tables *tables) {
    switch (level < cfold_wide_run_level() ? level : cfold_wide_run_level()) {
    case 3: return cfold_wide_run_avx512(src, n, out, room, written, tables);
    case 2: return cfold_wide_run_avx2(src, n, out, room, written, tables);
    default: return cfold_wide_run_portable(src, n, out, room, written, tables);
    }
}

int64_t cfold_wide_run(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                       const cfold_wide_tables *tables) {
    return cfold_wide_run_at(3, src, n, out, room, written, tables);
}

#else

int32_t cfold_wide_run_level(void) { return 0; }

int64_t cfold_wide_run(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                       const cfold_wide_tables *tables) {
    return cfold_wide_run_portable(src, n, out, room, written, tables);
}

int64_t cfold_wide_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                          const cfold_wide_tables *tables) {
    (void)level;
    return cfold_wide_run_portable(src, n, out, room, written, tables);
}

#endif
