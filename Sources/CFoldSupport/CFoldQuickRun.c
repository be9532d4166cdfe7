// cfold_quick_run (include/CFoldQuickRun.h): the AVX-512 steps and the portable one.
#include "CFoldQuickRun.h"
#include "CFoldWideRun.h"

/// The word of the composite of a kana and the voicing mark after it (`mark`, its code point),
/// when `kana` is the word of one kana of three bytes (E3 80...83 xx) that composes with it
/// (`tables->voicing`, not NULL, and `tables->marks`): the composite's three bytes, E3 first; else 0.
static inline uint32_t cfold_quick_composite(const cfold_quick_tables *tables, uint32_t kana, uint32_t mark) {
    const uint32_t k = mark - 0x3099 < 2 ? mark - 0x3099 : mark - 0xFF9E < 2 ? mark - 0xFF9E + 2 : 4;
    if (k == 4 || !tables->marks[k]) return 0;
    if ((kana & 0xFF0000FFu) != 0xE3 || (kana & 0x3C00) != 0) return 0;  // U+3000...U+30FF: E3 80...83 xx
    const uint32_t index = ((kana >> 8) & 0x03) << 6 | ((kana >> 16) & 0x3F);
    const uint32_t composite = tables->voicing[index << 1 | (tables->marks[k] - 0x3099)];
    if (!composite) return 0;
    return 0xE3u | (0x80u | ((composite >> 6) & 0x3F)) << 8 | (0x80u | (composite & 0x3F)) << 16;
}

/// At `src[at]` (`at` bytes read by this call before it), a code point the step folds only
/// here: a voiced kana (`CFOLD_QUICK_VOICED`, six bytes written) or a voicing mark after a kana that
/// composes with it (the kana's three bytes written last overwritten by the composite). How many
/// bytes it read (3), or 0 when it is neither (the step stops there).
static inline int64_t cfold_quick_special(const uint8_t *src, int64_t at, int64_t n, uint8_t *out, int64_t *o, int64_t room,
                                          const cfold_quick_tables *tables) {
    if (at + 3 > n || (src[at] & 0xF0) != 0xE0 || (src[at + 1] & 0xC0) != 0x80 || (src[at + 2] & 0xC0) != 0x80) return 0;
    const uint32_t value = (uint32_t)(src[at] & 0x0F) << 12 | (uint32_t)(src[at + 1] & 0x3F) << 6 | (uint32_t)(src[at + 2] & 0x3F);
    if (value < 0x800 || (value & 0xF800) == 0xD800) return 0;
    const uint32_t fold = __atomic_load_n(&tables->folds[value], __ATOMIC_RELAXED);
    if ((fold & CFOLD_QUICK_VOICED_MASK) == CFOLD_QUICK_VOICED) {
        if (*o + 6 > room) return 0;
        cfold_quick_voiced_bytes(fold, out + *o);
        *o += 6;
        return 3;
    }
    if (fold || !tables->voicing || at < 3) return 0;
    // The code point before it: three bytes (read by this call) whose word is one kana of three
    // bytes, the last bytes written.
    const uint8_t *p = src + at - 3;
    if ((p[0] & 0xF0) != 0xE0) return 0;
    const uint32_t before = (uint32_t)(p[0] & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (uint32_t)(p[2] & 0x3F);
    const uint32_t composite = cfold_quick_composite(tables, __atomic_load_n(&tables->folds[before], __ATOMIC_RELAXED), value);
    if (!composite) return 0;
    out[*o - 2] = (uint8_t)(composite >> 8);
    out[*o - 1] = (uint8_t)(composite >> 16);
    return 3;
}

int64_t cfold_quick_run_portable(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                 const cfold_quick_tables *tables) {
    const uint32_t *folds = tables->folds;
    const int32_t lowercase = tables->lowercase;
    int64_t pos = 0, o = 0;
    while (pos < n) {
        const uint8_t a = src[pos];
        if (a < 0x80) {
            if (a < 0x20 || o + 1 > room) break;
            out[o++] = lowercase && (uint8_t)(a - 'A') < 26 ? (uint8_t)(a + 0x20) : a;
            pos += 1;
            continue;
        }
        uint32_t v;
        int64_t length;
        if ((a & 0xE0) == 0xC0) {
            if (pos + 2 > n || (src[pos + 1] & 0xC0) != 0x80) break;
            v = (uint32_t)(a & 0x1F) << 6 | (uint32_t)(src[pos + 1] & 0x3F);
            if (v < 0x80) break;  // overlong
            length = 2;
        } else if ((a & 0xF0) == 0xE0) {
            if (pos + 3 > n || (src[pos + 1] & 0xC0) != 0x80 || (src[pos + 2] & 0xC0) != 0x80) break;
            v = (uint32_t)(a & 0x0F) << 12 | (uint32_t)(src[pos + 1] & 0x3F) << 6 | (uint32_t)(src[pos + 2] & 0x3F);
            if (v < 0x800 || (v & 0xF800) == 0xD800) break;  // overlong, or a surrogate
            length = 3;
        } else {
            break;
        }
        const uint32_t fold = __atomic_load_n(&folds[v], __ATOMIC_RELAXED);
        if (fold == CFOLD_QUICK_REMOVED) {
            pos += length;
            continue;
        }
        if (!fold || (fold & CFOLD_QUICK_VOICED_MASK) == CFOLD_QUICK_VOICED) {
            const int64_t l = cfold_quick_special(src, pos, n, out, &o, room, tables);
            if (!l) break;
            pos += l;
            continue;
        }
        int64_t count = 0;
        for (int k = 0; k < 4; k++) count += (fold >> (8 * k)) & 0xFF ? 1 : 0;
        if (!count || o + count > room) break;
        for (int k = 0; k < 4; k++) {
            const uint8_t byte = (uint8_t)(fold >> (8 * k));
            if (byte) out[o++] = byte;
        }
        pos += length;
    }
    *written = o;
    return pos;
}

/// A code point's two bytes in the Latin and pair tables, from its word in `folds`.
static void cfold_quick_two_bytes(const uint32_t *folds, uint32_t value, uint8_t *first, uint8_t *second) {
    const uint32_t word = __atomic_load_n(&folds[value], __ATOMIC_RELAXED);
    *first = 0xFF;
    *second = 0;
    if (word == CFOLD_QUICK_REMOVED) {
        *first = 0;
    } else if (word != 0 && (word & CFOLD_QUICK_VOICED_MASK) != CFOLD_QUICK_VOICED && word <= 0xFFFF) {
        if (word <= 0xFF) {
            *first = 0;
            *second = (uint8_t)word;
        } else if ((uint8_t)word != 0xFF) {
            *first = (uint8_t)word;
            *second = (uint8_t)(word >> 8);
        }
    }
}

void cfold_quick_latin_fill(const uint32_t *folds, uint8_t *latin) {
    for (uint32_t g = 0; g < 6; g++) {
        for (uint32_t k = 0; k < 64; k++) {
            const uint32_t value = g < 5 ? ((0xC2 + g) & 0x1F) << 6 | k : 0x300 | k;
            cfold_quick_two_bytes(folds, value, &latin[g * 64 + k], &latin[384 + g * 64 + k]);
        }
    }
}

void cfold_quick_pair_fill(const uint32_t *folds, uint32_t lead, uint8_t *table) {
    for (uint32_t k = 0; k < 128; k++) {
        cfold_quick_two_bytes(folds, (lead & 0x1E) << 6 | k, &table[k], &table[128 + k]);
    }
}

/// Where `src[pos]` starts a three-byte code point of leads E4-EE whose page folds to itself
/// (`tables->pages`), the portable Latin and pair steps keep its bytes: written at `out[*o]`, and
/// 1; else (or where the room is short) 0.
static inline int cfold_quick_keep_ideograph(const cfold_quick_tables *tables, const uint8_t *src, int64_t pos, int64_t n, uint8_t *out,
                                             int64_t *o, int64_t room) {
    if (!tables->pages || (uint8_t)(src[pos] - 0xE4) >= 11 || pos + 3 > n || (src[pos + 1] & 0xC0) != 0x80 || (src[pos + 2] & 0xC0) != 0x80
        || *o + 3 > room) return 0;
    const uint32_t page = (uint32_t)(src[pos] & 0x0F) << 4 | (uint32_t)(src[pos + 1] & 0x3F) >> 2;
    if (!((__atomic_load_n(&tables->pages[page >> 6], __ATOMIC_RELAXED) >> (page & 63)) & 1)) return 0;
    out[*o] = src[pos];
    out[*o + 1] = src[pos + 1];
    out[*o + 2] = src[pos + 2];
    *o += 3;
    return 1;
}

/// The pair table of `lead`'s pair, or NULL.
static inline const uint8_t *cfold_quick_pair_table(const cfold_quick_tables *tables, uint8_t lead) {
    if (!tables->pairs || (lead & 0xE0) != 0xC0) return (const uint8_t *)0;
    return (const uint8_t *)__atomic_load_n(&tables->pairs[(lead - 0xC0) >> 1], __ATOMIC_ACQUIRE);
}

/// Whether `b` is a lead byte of the Latin table: C2...C6 or CC.
static inline int cfold_is_latin_lead(uint8_t b) { return (uint8_t)(b - 0xC2) < 5 || b == 0xCC; }

/// The portable Latin step (`latin` not 0: the Latin table, `tables->latin`) or pair step (each
/// code point's pair table, `tables->pairs`): what the vector ones must equal. They differ only in
/// where a two-byte code point's two bytes are looked up.
static int64_t cfold_quick_table_run_portable(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                              const cfold_quick_tables *tables, int latin) {
    int64_t pos = 0, o = 0;
    while (pos < n) {
        const uint8_t a = src[pos];
        if (a < 0x80) {
            if (a < 0x20 || o + 1 > room) break;
            out[o++] = tables->lowercase && (uint8_t)(a - 'A') < 26 ? (uint8_t)(a + 0x20) : a;
            pos += 1;
            continue;
        }
        if (cfold_quick_keep_ideograph(tables, src, pos, n, out, &o, room)) {
            pos += 3;
            continue;
        }
        // The table and the entry of the code point: the Latin table's row (C2...C6 0...4, CC 5)
        // and its halves of 384 bytes, or the pair's table, its row (the lead's low bit) and its
        // halves of 128.
        const uint8_t *table;
        unsigned row, half;
        if (latin) {
            table = cfold_is_latin_lead(a) ? tables->latin : (const uint8_t *)0;
            row = a == 0xCC ? 5u : (unsigned)(a - 0xC2);
            half = CFOLD_QUICK_LATIN_BYTES / 2;
        } else {
            table = cfold_quick_pair_table(tables, a);
            row = a & 1;
            half = CFOLD_QUICK_PAIR_BYTES / 2;
        }
        if (!table || pos + 2 > n || (src[pos + 1] & 0xC0) != 0x80) break;
        const unsigned index = row * 64 + (src[pos + 1] & 0x3F);
        const uint8_t first = table[index], second = table[half + index];
        if (first == 0xFF || o + (first != 0) + (second != 0) > room) break;
        if (first) out[o++] = first;
        if (second) out[o++] = second;
        pos += 2;
    }
    *written = o;
    return pos;
}

#if defined(__x86_64__)

#include <immintrin.h>

#define CFOLD_AVX512 __attribute__((target("avx2,avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")))

/// The fewest bytes a window of the Latin step must take for the step over mixed scripts to take it
/// (else the window goes to the lanes: a Latin letter before a word of another script).
#define CFOLD_QUICK_LATIN_MINIMUM 16
/// A window's last round of lanes with fewer code points than this, where text goes on past the
/// window, is left to the next window: a round costs its gather whatever its lanes (a masked
/// gather of 4 lanes as much as one of 16 on Zen 4), and the next window takes them in a full
/// round (text of three-byte code points: 16 a window, not 16 and 5).
#define CFOLD_QUICK_SHORT_ROUND 8

/// `cfold_quick_lanes` where some of the lanes are voiced kana of three bytes (`voiced`, words
/// `CFOLD_QUICK_VOICED`: the kana's three bytes, then E3 82 and the mark's last byte): each lane's
/// fold in eight bytes, the kana's mark in the high four, so that one lane writes up to six. The
/// other lanes as there: `removed` write nothing, `stop` ends what it takes. How many lanes it
/// folded, or none when their folds would not fit in the room.
CFOLD_AVX512 static inline unsigned cfold_quick_lanes_voiced(__m512i folded, __mmask16 removed, __mmask16 voiced, __mmask16 stop,
                                                             unsigned lanes, uint8_t *out, int64_t *o, int64_t room) {
    const unsigned take = stop ? (unsigned)__builtin_ctz(stop) : lanes;
    const __m512i low = _mm512_mask_or_epi32(_mm512_maskz_mov_epi32(~removed, folded), voiced,
                                             _mm512_and_si512(folded, _mm512_set1_epi32(0x00FFFFFF)), _mm512_set1_epi32((int)0xE3000000u));
    const __m512i high = _mm512_maskz_or_epi32(voiced, _mm512_and_si512(_mm512_srli_epi32(folded, 16), _mm512_set1_epi32(0xFF00)),
                                               _mm512_set1_epi32(0x82));
    // Lanes 0...7 and 8...15, each lane's low word then its high word.
    const __m512i first = _mm512_permutex2var_epi32(low, _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0), high);
    const __m512i second = _mm512_permutex2var_epi32(low, _mm512_set_epi32(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8), high);
    uint64_t bytes0 = _mm512_test_epi8_mask(first, first), bytes1 = _mm512_test_epi8_mask(second, second);
    if (take < 8) {
        bytes0 &= (1ull << (8 * take)) - 1;
        bytes1 = 0;
    } else if (take < 16) {
        bytes1 &= (1ull << (8 * (take - 8))) - 1;
    }
    const int64_t count0 = __builtin_popcountll(bytes0), count1 = __builtin_popcountll(bytes1);
    if (*o + count0 + count1 > room) return 0;
    _mm512_mask_storeu_epi8(out + *o, count0 == 64 ? ~0ull : (1ull << count0) - 1, _mm512_maskz_compress_epi8(bytes0, first));
    _mm512_mask_storeu_epi8(out + *o + count0, count1 == 64 ? ~0ull : (1ull << count1) - 1, _mm512_maskz_compress_epi8(bytes1, second));
    *o += count0 + count1;
    return take;
}

/// The words of `folds` of the four code points at `at`, in the lanes of a vector of four.
CFOLD_AVX512 static inline __attribute__((always_inline)) __m128i cfold_quick_quarter(const uint32_t *folds, const uint32_t *at) {
    return _mm_setr_epi32((int)__atomic_load_n(&folds[at[0]], __ATOMIC_RELAXED), (int)__atomic_load_n(&folds[at[1]], __ATOMIC_RELAXED),
                          (int)__atomic_load_n(&folds[at[2]], __ATOMIC_RELAXED), (int)__atomic_load_n(&folds[at[3]], __ATOMIC_RELAXED));
}

/// The words of `folds` of the code points of `value` (each below U+10000) in as many fours of
/// lanes as hold the first `lanes` (the lanes after those fours 0): a load and an insert each, not
/// a gather. x86 loads each aligned word whole, so a word another thread is writing reads as
/// before or after. Measured on Zen 4, sixteen words of Cyrillic, Greek, kana, ideographs and
/// fullwidth forms from the 256 KB table: `vpgatherdd` 5.0 ns, these 3.7 (a loop of such rounds
/// alone); and a round of few lanes (short lines) loads only theirs. The step over mixed scripts
/// 2-3% faster (mixed.txt 1038 to 1071 MB/s).

CFOLD_AVX512 static inline __attribute__((always_inline)) __m512i cfold_quick_words(const uint32_t *folds, __m512i value, unsigned lanes) {
    uint32_t index[16] __attribute__((aligned(64)));
    _mm512_store_si512((void *)index, value);
    const __m128i low = cfold_quick_quarter(folds, index);
    if (lanes <= 4) return _mm512_zextsi128_si512(low);
    const __m512i half = _mm512_zextsi256_si512(_mm256_inserti128_si256(_mm256_castsi128_si256(low), cfold_quick_quarter(folds, index + 4), 1));
    if (lanes <= 8) return half;
    return _mm512_inserti32x4(_mm512_inserti32x4(half, cfold_quick_quarter(folds, index + 8), 2), cfold_quick_quarter(folds, index + 12), 3);
}

/// In the lanes of `cfold_quick_lanes` (code points `value`, words `*folded`, `three` the valid
/// code points of three bytes), each voicing mark (word 0) right after a kana of three bytes in the
/// lane before it that composes with it (as `cfold_quick_special` composes them): the kana's word
/// becomes the composite's and the mark's `CFOLD_QUICK_REMOVED`, so that the lanes go on past it
/// (ｶﾞ to が). A mark after a mark composes with nothing. The lanes it composed.
CFOLD_AVX512 static inline __attribute__((always_inline)) __mmask16 cfold_quick_lanes_compose(__m512i *folded, __m512i value, __mmask16 three, const cfold_quick_tables *tables) {
    // Which of the four marks (U+3099, U+309A, U+FF9E, U+FF9F: 0...3) each lane is, and what it
    // folds to alone there (0x3099, 0x309A, or 0 where it composes with nothing).
    const __m512i k1 = _mm512_sub_epi32(value, _mm512_set1_epi32(0x3099)), k2 = _mm512_sub_epi32(value, _mm512_set1_epi32(0xFF9E));
    const __m512i k = _mm512_mask_add_epi32(_mm512_mask_mov_epi32(_mm512_set1_epi32(4), _mm512_cmplt_epu32_mask(k1, _mm512_set1_epi32(2)), k1),
                                            _mm512_cmplt_epu32_mask(k2, _mm512_set1_epi32(2)), k2, _mm512_set1_epi32(2));
    const __m512i marks = _mm512_zextsi128_si512(_mm_loadu_si128((const __m128i *)(const void *)tables->marks));
    const __m512i mark = _mm512_permutexvar_epi32(k, marks);
    const __mmask16 isMark = _mm512_mask_cmplt_epu32_mask(three & ~_mm512_test_epi32_mask(*folded, *folded), k, _mm512_set1_epi32(4))
        & _mm512_test_epi32_mask(mark, mark);
    // The word of the lane before each: one kana of three bytes (E3 80...83 xx) in a lane of three bytes.
    const __m512i before = _mm512_alignr_epi32(*folded, _mm512_setzero_si512(), 15);
    const __mmask16 kana = _mm512_cmpeq_epi32_mask(_mm512_and_si512(before, _mm512_set1_epi32((int)0xFF003CFFu)), _mm512_set1_epi32(0xE3))
        & (__mmask16)(three << 1);
    const __mmask16 candidates = isMark & kana;
    if (!candidates) return 0;
    const __m512i index = _mm512_or_si512(_mm512_slli_epi32(_mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(_mm512_srli_epi32(before, 8), _mm512_set1_epi32(3)), 6),
                                                                            _mm512_and_si512(_mm512_srli_epi32(before, 16), _mm512_set1_epi32(0x3F))), 1),
                                          _mm512_sub_epi32(mark, _mm512_set1_epi32(0x3099)));
    const __m512i composite = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), candidates, index, (const void *)tables->voicing, 4);
    const __mmask16 composed = _mm512_test_epi32_mask(composite, composite);
    // The composite's three bytes, in the lane before.
    const __m512i word = _mm512_ternarylogic_epi32(_mm512_slli_epi32(_mm512_and_si512(_mm512_srli_epi32(composite, 6), _mm512_set1_epi32(0x3F)), 8),
                                                   _mm512_slli_epi32(_mm512_and_si512(composite, _mm512_set1_epi32(0x3F)), 16),
                                                   _mm512_set1_epi32(0x8080E3), 0xFE);
    *folded = _mm512_mask_mov_epi32(*folded, (__mmask16)(composed >> 1), _mm512_alignr_epi32(_mm512_setzero_si512(), word, 1));
    *folded = _mm512_mask_mov_epi32(*folded, composed, _mm512_set1_epi32((int)CFOLD_QUICK_REMOVED));
    return composed;
}

/// Folds up to sixteen code points whose lead bytes (`b0`), second and third bytes are in the low
/// sixteen bytes of each vector, `lanes` of them (1...16), into `out` at `*o`: how many it folded
/// (fewer than `lanes` at the first code point the step leaves to the fold loop, or none when the
/// folds of all `lanes` would not fit in the room).
CFOLD_AVX512 static inline unsigned cfold_quick_lanes(__m512i b0, __m512i b1, __m512i b2, unsigned lanes, uint8_t *out, int64_t *o,
                                                      int64_t room, const cfold_quick_tables *tables) {
    const uint32_t *folds = tables->folds;
    const int32_t lowercase = tables->lowercase;
    const __m512i d0 = _mm512_cvtepu8_epi32(_mm512_castsi512_si128(b0));
    const __m512i c1 = _mm512_and_si512(_mm512_cvtepu8_epi32(_mm512_castsi512_si128(b1)), _mm512_set1_epi32(0x3F));
    const __m512i c2 = _mm512_and_si512(_mm512_cvtepu8_epi32(_mm512_castsi512_si128(b2)), _mm512_set1_epi32(0x3F));
    const __mmask16 inLanes = (__mmask16)((1u << lanes) - 1);
    // Lanes past `lanes` hold zero bytes: ASCII, never taken.
    const __mmask16 ascii = _mm512_cmplt_epu32_mask(d0, _mm512_set1_epi32(0x80));
    const __mmask16 three = _mm512_cmpge_epu32_mask(d0, _mm512_set1_epi32(0xE0));
    const __mmask16 two = ~ascii & ~three;
    const __m512i v2 = _mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(d0, _mm512_set1_epi32(0x1F)), 6), c1);
    const __m512i v3 = _mm512_or_si512(_mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(d0, _mm512_set1_epi32(0x0F)), 12),
                                                       _mm512_slli_epi32(c1, 6)), c2);
    const __m512i value = _mm512_mask_mov_epi32(_mm512_mask_mov_epi32(d0, two, v2), three, v3);
    // Overlong sequences and surrogates stop the step.
    const __mmask16 invalid = _mm512_mask_cmplt_epu32_mask(two, value, _mm512_set1_epi32(0x80))
        | _mm512_mask_cmplt_epu32_mask(three, value, _mm512_set1_epi32(0x800))
        | _mm512_mask_cmpeq_epu32_mask(three, _mm512_and_si512(value, _mm512_set1_epi32(0xF800)), _mm512_set1_epi32(0xD800));
    // The lanes' fold words (those of ASCII too, replaced below; past `lanes` 0 or the word of
    // U+0000, replaced as well).
    __m512i folded = cfold_quick_words(folds, value, lanes);
    const __mmask16 upper = lowercase ? _mm512_mask_cmplt_epu32_mask(ascii, _mm512_sub_epi32(d0, _mm512_set1_epi32('A')), _mm512_set1_epi32(26)) : 0;
    folded = _mm512_mask_mov_epi32(folded, ascii, _mm512_mask_or_epi32(d0, upper, d0, _mm512_set1_epi32(0x20)));
    const __mmask16 present = _mm512_test_epi32_mask(folded, folded);
    __mmask16 stop = inLanes & ~(present & ~invalid);
    // Voicing marks that compose with the kana before them, off the common path.
    if (__builtin_expect(stop != 0, 0) && tables->voicing) stop &= ~cfold_quick_lanes_compose(&folded, value, three & ~invalid, tables);
    // A fold's bytes are its word's bytes that are not 0: byte k of lane j is written when it is
    // not 0 and j < take.
    uint64_t bytes = _mm512_test_epi8_mask(folded, folded);
    if (__builtin_expect((bytes & 0x8888888888888888ull) != 0, 0)) {
        // A word of four bytes (ᾳ to αι) in some lane, a voiced kana (six bytes) or a mark the
        // fold removes (nothing written). The tests only here, off the common path.
        const __mmask16 removed = _mm512_cmpeq_epi32_mask(folded, _mm512_set1_epi32((int)CFOLD_QUICK_REMOVED));
        const __mmask16 voiced = _mm512_cmpeq_epi32_mask(_mm512_and_si512(folded, _mm512_set1_epi32((int)CFOLD_QUICK_VOICED_MASK)),
                                                         _mm512_set1_epi32((int)CFOLD_QUICK_VOICED));
        // A voiced kana's word on a code point of two bytes is no fold: the step stops there.
        stop |= inLanes & voiced & ~three;
        if (voiced & three & inLanes) return cfold_quick_lanes_voiced(folded, removed, voiced & three, stop, lanes, out, o, room);
        bytes &= ~_mm512_movepi8_mask(_mm512_maskz_mov_epi32(removed, _mm512_set1_epi32(-1)));
    }
    const unsigned take = stop ? (unsigned)__builtin_ctz(stop) : lanes;
    if (take < 16) bytes &= (1ull << (4 * take)) - 1;
    const int64_t count = __builtin_popcountll(bytes);
    if (*o + count > room) return 0;
    _mm512_mask_storeu_epi8(out + *o, count == 64 ? ~0ull : (1ull << count) - 1, _mm512_maskz_compress_epi8(bytes, folded));
    *o += count;
    return take;
}

/// The bytes 0 to 63.
CFOLD_AVX512 static inline __m512i cfold_iota64(void) {
    return _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37,
                           36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9,
                           8, 7, 6, 5, 4, 3, 2, 1, 0);
}

/// A window of the Latin or pair step: the 64 bytes at `src` (or the `left` that are left: those
/// after read as 0), which bytes have the high bit, which are control bytes, which continuation
/// bytes, and at each continuation byte the byte before it (its lead).
typedef struct {
    __m512i v, before;
    uint64_t within, high, control, continuation;
} cfold_table_window;

CFOLD_AVX512 static inline __attribute__((always_inline)) cfold_table_window cfold_table_window_load(const uint8_t *src, int64_t left) {
    cfold_table_window w;
    w.within = left >= 64 ? ~0ull : (1ull << left) - 1;
    w.v = _mm512_maskz_loadu_epi8(w.within, src);
    w.high = _mm512_movepi8_mask(w.v);
    w.control = _mm512_mask_cmplt_epu8_mask(w.within & ~w.high, w.v, _mm512_set1_epi8(0x20));
    w.continuation = _mm512_cmpeq_epi8_mask(_mm512_and_si512(w.v, _mm512_set1_epi8((char)0xC0)), _mm512_set1_epi8((char)0x80));
    w.before = _mm512_permutexvar_epi8(_mm512_sub_epi8(cfold_iota64(), _mm512_set1_epi8(1)), w.v);
    return w;
}

/// The rest of a window of the Latin or pair step, once its table's two bytes (`first`, `second`)
/// are at each continuation byte after one of its leads (`leads`): up to the first byte the
/// table does not take (a byte of another script, a control byte, a code point its table refuses,
/// the text's end), ASCII (A-Z lowered when `lowercase`) and each code point's bytes that are not
/// 0, compressed into `out`. How many bytes it read, or 0 when that is fewer than `minimum` (and
/// not all that is left) or the fold would not fit in `room`: nothing written then.
CFOLD_AVX512 static inline __attribute__((always_inline)) int64_t cfold_table_window_write(const cfold_table_window *w, uint64_t leads,
                                                                                          __m512i first, __m512i second, int64_t left,
                                                                                          uint8_t *out, int64_t room, int64_t *written,
                                                                                          int32_t lowercase, const uint64_t *pages,
                                                                                          unsigned minimum) {
    // A lead with its continuation byte in the window, and that byte.
    const uint64_t pairLeads = leads & (w->continuation >> 1);
    const uint64_t pairEnds = pairLeads << 1;
    // The code points the table leaves to the others, from their leads.
    const uint64_t refused = _mm512_mask_cmpeq_epi8_mask(pairEnds, first, _mm512_set1_epi8((char)0xFF)) >> 1;
    // Three-byte code points whose page folds to itself, whole in the window: kept as they are.
    // Only leads E4-EE are looked at (U+4000...U+EFFF: ideographs, Yi, Hangul syllables), not the
    // kana, punctuation and fullwidth forms, whose pages do not.
    uint64_t kept = 0, ideographsAt = 0, ideographsRefused = 0;
    const uint64_t ideographLeads = pages ? _mm512_cmplt_epu8_mask(_mm512_sub_epi8(w->v, _mm512_set1_epi8((char)0xE4)), _mm512_set1_epi8(11)) : 0;
    if (ideographLeads) {
        const uint64_t threeLeads = ideographLeads & (w->continuation >> 1) & (w->continuation >> 2);
        const __m512i pageBits = _mm512_castsi256_si512(_mm256_setr_epi64x((long long)__atomic_load_n(&pages[0], __ATOMIC_RELAXED),
                                                                          (long long)__atomic_load_n(&pages[1], __ATOMIC_RELAXED),
                                                                          (long long)__atomic_load_n(&pages[2], __ATOMIC_RELAXED),
                                                                          (long long)__atomic_load_n(&pages[3], __ATOMIC_RELAXED)));
        // At each lead, its page: the lead's low four bits, then bits 2-5 of the byte after it.
        const __m512i next = _mm512_permutexvar_epi8(_mm512_add_epi8(cfold_iota64(), _mm512_set1_epi8(1)), w->v);
        const __m512i page = _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(w->v, _mm512_set1_epi8(0x0F)), 4),
                                             _mm512_srli_epi16(_mm512_and_si512(next, _mm512_set1_epi8(0x3C)), 2));
        const __m512i pageByte = _mm512_permutexvar_epi8(_mm512_and_si512(_mm512_srli_epi16(page, 3), _mm512_set1_epi8(0x1F)), pageBits);
        const __m512i bit = _mm512_permutexvar_epi8(_mm512_and_si512(page, _mm512_set1_epi8(7)), _mm512_set1_epi64(0x8040201008040201ll));
        const uint64_t identity = threeLeads & _mm512_test_epi8_mask(pageByte, bit);
        kept = identity | identity << 1 | identity << 2;
        ideographsAt = threeLeads | threeLeads << 1 | threeLeads << 2;
        ideographsRefused = threeLeads & ~identity;
    }
    // Where the window ends: from the bytes alone (a byte no step of it takes, a control byte, the
    // text's end), then, off the common path, a code point a table leaves to the others before it
    // (a fold the table does not hold, an ideograph whose page does not fold to itself). So the
    // next window's start waits only for the bytes, not for the tables' lookups.
    const uint64_t bad = (w->high & ~(pairLeads | pairEnds | ideographsAt)) | w->control | ~w->within;
    unsigned limit = bad ? (unsigned)__builtin_ctzll(bad) : 64;
    const uint64_t refusals = (refused | ideographsRefused) & (limit < 64 ? (1ull << limit) - 1 : ~0ull);
    if (__builtin_expect(refusals != 0, 0)) limit = (unsigned)__builtin_ctzll(refusals);
    if (limit < minimum && (int64_t)limit < left) return 0;
    // Each lead's first byte is at the continuation byte after it.
    const __m512i firstAtLead = _mm512_permutexvar_epi8(_mm512_add_epi8(cfold_iota64(), _mm512_set1_epi8(1)), first);
    const __mmask64 upper = lowercase ? _mm512_cmplt_epu8_mask(_mm512_sub_epi8(w->v, _mm512_set1_epi8('A')), _mm512_set1_epi8(26)) : 0;
    __m512i folded = _mm512_mask_add_epi8(w->v, upper, w->v, _mm512_set1_epi8(0x20));
    folded = _mm512_mask_mov_epi8(folded, pairEnds, second);
    folded = _mm512_mask_mov_epi8(folded, pairLeads, firstAtLead);
    uint64_t keep = ~w->high | kept | (pairEnds & _mm512_test_epi8_mask(second, second)) | (pairLeads & _mm512_test_epi8_mask(firstAtLead, firstAtLead));
    if (limit < 64) keep &= (1ull << limit) - 1;
    const int64_t count = __builtin_popcountll(keep);
    if (count > room) return 0;
    _mm512_mask_storeu_epi8(out, count == 64 ? ~0ull : (1ull << count) - 1, _mm512_maskz_compress_epi8(keep, folded));
    *written = count;
    return limit;
}

/// The Latin step on the 64 bytes at `src` (or the `left` that are left): plain ASCII and the code
/// points of the Latin table that it folds (`tables->latin`, not NULL), up to the first other byte,
/// written to `out` (`room` bytes) with byte lookups (no gather) and one compress that drops the
/// bytes that fold to nothing (a lead before a one-byte fold, a removed mark); as
/// `cfold_table_window_write`, which also keeps the ideographs of `pages` where it is not NULL
/// (the wrappers below: each not inlined, since the step over mixed scripts calls it only where a
/// window starts with Latin text or ideographs, and without the ideographs' work where `pages` is
/// NULL). The pair windows, by contrast, are inlined in the step over mixed scripts (their
/// wrappers serve the tests' runs): there, without the call, its stack arguments and the tables
/// reloaded, Greek went 1997 to 2071 MB/s, Cyrillic 1916 to 1990, ideographs between Greek words
/// 1495 to 1582; the Latin windows inlined as well lost those gains again.
CFOLD_AVX512 static inline __attribute__((always_inline)) int64_t cfold_quick_latin_window_with(const uint8_t *src, int64_t left, uint8_t *out,
                                                                                               int64_t room, int64_t *written,
                                                                                               const cfold_quick_tables *tables,
                                                                                               const uint64_t *pages, unsigned minimum) {
    const uint8_t *latin = tables->latin;
    const cfold_table_window w = cfold_table_window_load(src, left);
    const uint64_t leads = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(w.v, _mm512_set1_epi8((char)0xC2)), _mm512_set1_epi8(5))
        | _mm512_cmpeq_epi8_mask(w.v, _mm512_set1_epi8((char)0xCC));
    // At each continuation byte, its lead's row g (C2...C6 0...4, CC 5): the row's low bit and the
    // byte's low six bits index a half of 128 bytes, its two high bits which half.
    const __m512i row = _mm512_mask_mov_epi8(_mm512_sub_epi8(w.before, _mm512_set1_epi8((char)0xC2)),
                                             _mm512_cmpeq_epi8_mask(w.before, _mm512_set1_epi8((char)0xCC)), _mm512_set1_epi8(5));
    const __m512i index = _mm512_ternarylogic_epi32(_mm512_slli_epi16(row, 6), w.v, _mm512_set1_epi8(0x40), 0xE4);  /* bit 6 from the row's bit 0, the rest from v */
    const __mmask64 half1 = _mm512_test_epi8_mask(row, _mm512_set1_epi8(2));
    const __mmask64 half2 = _mm512_test_epi8_mask(row, _mm512_set1_epi8(4));
    __m512i first = _mm512_permutex2var_epi8(_mm512_loadu_si512(latin), index, _mm512_loadu_si512(latin + 64));
    first = _mm512_mask_mov_epi8(first, half1, _mm512_permutex2var_epi8(_mm512_loadu_si512(latin + 128), index, _mm512_loadu_si512(latin + 192)));
    first = _mm512_mask_mov_epi8(first, half2, _mm512_permutex2var_epi8(_mm512_loadu_si512(latin + 256), index, _mm512_loadu_si512(latin + 320)));
    __m512i second = _mm512_permutex2var_epi8(_mm512_loadu_si512(latin + 384), index, _mm512_loadu_si512(latin + 448));
    second = _mm512_mask_mov_epi8(second, half1, _mm512_permutex2var_epi8(_mm512_loadu_si512(latin + 512), index, _mm512_loadu_si512(latin + 576)));
    second = _mm512_mask_mov_epi8(second, half2, _mm512_permutex2var_epi8(_mm512_loadu_si512(latin + 640), index, _mm512_loadu_si512(latin + 704)));
    return cfold_table_window_write(&w, leads, first, second, left, out, room, written, tables->lowercase, pages, minimum);
}

/// The pair step on the 64 bytes at `src`: as `cfold_quick_latin_window`, for plain ASCII and the
/// code points of one pair of leads (`lead` even: Cyrillic D0-D1, Greek CE-CF) that its table
/// (`table`, `CFOLD_QUICK_PAIR_BYTES`) folds: one lookup a half.
CFOLD_AVX512 static inline __attribute__((always_inline)) int64_t cfold_quick_pair_window_with(const uint8_t *src, int64_t left, uint8_t *out,
                                                                                              int64_t room, int64_t *written,
                                                                                              const uint8_t *table, uint8_t lead,
                                                                                              int32_t lowercase, const uint64_t *pages,
                                                                                              unsigned minimum) {
    const cfold_table_window w = cfold_table_window_load(src, left);
    const uint64_t leads = _mm512_cmpeq_epi8_mask(_mm512_and_si512(w.v, _mm512_set1_epi8((char)0xFE)), _mm512_set1_epi8((char)lead));
    // At each continuation byte: its lead's low bit (the row) at bit 6, its own low six bits.
    const __m512i index = _mm512_ternarylogic_epi32(_mm512_slli_epi16(w.before, 6), w.v, _mm512_set1_epi8(0x40), 0xE4);
    const __m512i first = _mm512_permutex2var_epi8(_mm512_loadu_si512(table), index, _mm512_loadu_si512(table + 64));
    const __m512i second = _mm512_permutex2var_epi8(_mm512_loadu_si512(table + 128), index, _mm512_loadu_si512(table + 192));
    return cfold_table_window_write(&w, leads, first, second, left, out, room, written, lowercase, pages, minimum);
}

/// The Latin window.
CFOLD_AVX512 __attribute__((noinline)) static int64_t cfold_quick_latin_window(const uint8_t *src, int64_t left, uint8_t *out, int64_t room,
                                                                              int64_t *written, const cfold_quick_tables *tables,
                                                                              unsigned minimum) {
    return cfold_quick_latin_window_with(src, left, out, room, written, tables, (const uint64_t *)0, minimum);
}

/// The Latin window that also keeps the ideographs of `tables->pages` (not NULL).
CFOLD_AVX512 __attribute__((noinline)) static int64_t cfold_quick_latin_ideograph_window(const uint8_t *src, int64_t left, uint8_t *out,
                                                                                        int64_t room, int64_t *written,
                                                                                        const cfold_quick_tables *tables, unsigned minimum) {
    return cfold_quick_latin_window_with(src, left, out, room, written, tables, tables->pages, minimum);
}

/// The pair window (the tests' runs; the step over mixed scripts has it inlined).
CFOLD_AVX512 __attribute__((noinline)) static int64_t cfold_quick_pair_window(const uint8_t *src, int64_t left, uint8_t *out, int64_t room,
                                                                             int64_t *written, const uint8_t *table, uint8_t lead,
                                                                             int32_t lowercase, unsigned minimum) {
    return cfold_quick_pair_window_with(src, left, out, room, written, table, lead, lowercase, (const uint64_t *)0, minimum);
}

/// The pair window that also keeps the ideographs of `pages` (not NULL; the tests' runs, as above).
CFOLD_AVX512 __attribute__((noinline)) static int64_t cfold_quick_pair_ideograph_window(const uint8_t *src, int64_t left, uint8_t *out,
                                                                                       int64_t room, int64_t *written, const uint8_t *table,
                                                                                       uint8_t lead, int32_t lowercase, const uint64_t *pages,
                                                                                       unsigned minimum) {
    return cfold_quick_pair_window_with(src, left, out, room, written, table, lead, lowercase, pages, minimum);
}

CFOLD_AVX512 static int64_t cfold_quick_run_avx512(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                                   const cfold_quick_tables *tables) {
    const int32_t lowercase = tables->lowercase;
    const __m512i iota = cfold_iota64();
    int64_t pos = 0, o = 0;
    while (pos < n) {
        const int64_t left = n - pos;
        // The text's last bytes (fewer than 64) in one masked load: those after it read as 0.
        const uint64_t within = left >= 64 ? ~0ull : (1ull << left) - 1;
        const __m512i v = _mm512_maskz_loadu_epi8(within, src + pos);
        const uint64_t high = _mm512_movepi8_mask(v);
        const uint64_t control = _mm512_mask_cmplt_epu8_mask(within & ~high, v, _mm512_set1_epi8(0x20));
        // Plain ASCII: the bytes before the first that is not (or the text's end).
        const uint64_t notPlain = high | control | ~within;
        const unsigned plain = notPlain ? (unsigned)__builtin_ctzll(notPlain) : 64;
        if (plain >= 16 || (int64_t)plain == left) {
            // Sixteen bytes or more of it, or all that is left: at once, up to the first that is not.
            const int64_t k = o + plain <= room ? plain : room - o;
            const __mmask64 upper = lowercase ? _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('A')), _mm512_set1_epi8(26)) : 0;
            _mm512_mask_storeu_epi8(out + o, k == 64 ? ~0ull : (1ull << k) - 1, _mm512_mask_add_epi8(v, upper, v, _mm512_set1_epi8(0x20)));
            pos += k;
            o += k;
            // Past it: a byte that is not ASCII goes on here; a control byte, the room's end or the
            // text's end stops.
            if (k < 64 && !((high >> k) & 1)) break;
            continue;
        }
        // Latin text (a lead of the Latin table after fewer than 16 bytes of ASCII): the Latin step,
        // when it takes 16 bytes or more.
        // Text of one pair of leads (Cyrillic, Greek): the pair step, likewise.
        // Not where a three- or four-byte code point starts in the first 16 bytes: the window would
        // stop before it, short of what it must take. Where the window's only code points of three
        // bytes or more are ideographs (leads E4-EE, pages that fold to themselves), wherever they
        // are in it: the window of its first two-byte lead's table (or the Latin one, where it has
        // none) that also keeps them (ideographs between Greek words), a function apart so that the
        // others do not pay for it; so a window of Greek does not stop at the ideographs after its
        // first 16 bytes.
        const uint8_t lead = src[pos + plain];
        const uint64_t wide = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8((char)0xE0));
        int64_t r = 0, w = 0;
        const int ideographsOnly = wide && tables->pages
            && !(wide & ~_mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8((char)0xE4)), _mm512_set1_epi8(11)));
        if (!(uint16_t)wide && !ideographsOnly) {
            if (tables->latin && cfold_is_latin_lead(lead)) {
                r = cfold_quick_latin_window(src + pos, left, out + o, room - o, &w, tables, CFOLD_QUICK_LATIN_MINIMUM);
            } else if ((lead & 0xE0) == 0xC0) {
                const uint8_t *pair = cfold_quick_pair_table(tables, lead);
                if (pair) {
                    r = cfold_quick_pair_window_with(src + pos, left, out + o, room - o, &w, pair, lead & 0xFE, lowercase, (const uint64_t *)0,
                                                     CFOLD_QUICK_LATIN_MINIMUM);
                }
            }
        } else if (ideographsOnly) {
            const uint64_t twoByteLeads = _mm512_mask_cmplt_epu8_mask(within, _mm512_sub_epi8(v, _mm512_set1_epi8((char)0xC0)), _mm512_set1_epi8(0x20));
            const uint8_t first2 = twoByteLeads ? src[pos + __builtin_ctzll(twoByteLeads)] : 0;
            if (tables->latin && (!first2 || cfold_is_latin_lead(first2))) {
                r = cfold_quick_latin_ideograph_window(src + pos, left, out + o, room - o, &w, tables, CFOLD_QUICK_LATIN_MINIMUM);
            } else {
                const uint8_t *pair = cfold_quick_pair_table(tables, first2);
                if (pair) {
                    r = cfold_quick_pair_window_with(src + pos, left, out + o, room - o, &w, pair, first2 & 0xFE, lowercase, tables->pages,
                                                     CFOLD_QUICK_LATIN_MINIMUM);
                }
            }
        }
        if (r) {
            pos += r;
            o += w;
            continue;
        }
        // Lead bytes, and where their lengths say continuation bytes must be: the first byte where
        // the two differ, or a control byte or a four-byte lead, ends what this step may fold.
        const uint64_t continuation = _mm512_cmpeq_epi8_mask(_mm512_and_si512(v, _mm512_set1_epi8((char)0xC0)), _mm512_set1_epi8((char)0x80));
        const uint64_t leads = ~continuation;
        const uint64_t two = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8((char)0xC0));
        const uint64_t three = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8((char)0xE0));
        const uint64_t four = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8((char)0xF0));
        const uint64_t expected = two << 1 | three << 2;
        const uint64_t bad = (expected ^ continuation) | four | control;
        const unsigned first = bad ? (unsigned)__builtin_ctzll(bad) : 64;
        unsigned limit = first;
        if (first < 64 && ((expected & leads) >> first) & 1) {
            // A lead where a continuation byte was expected: the code point before it is cut short.
            const uint64_t before = leads & ((1ull << first) - 1);
            limit = before ? 63 - (unsigned)__builtin_clzll(before) : 0;
        }
        const unsigned limitBad = limit;
        // Code points that start before 61 end inside the 64 bytes; in the text's last bytes, all.
        if (left >= 64) {
            if (limit > 61) limit = 61;
        } else if (limit > left) {
            limit = (unsigned)left;
        }
        const uint64_t starts = leads & ((1ull << limit) - 1);
        if (!starts) break;
        // Where the last code point folded ends: the first lead (or bad byte) from `limit` on.
        const uint64_t after = (leads | bad) >> limit;
        int64_t end = after ? limit + __builtin_ctzll(after) : 64;
        if (end > left) end = left;
        // The code points' first, second and third bytes, in order, sixteen at a time.
        __m512i at = _mm512_maskz_compress_epi8(starts, iota);
        __m512i b0 = _mm512_permutexvar_epi8(at, v);
        __m512i b1 = _mm512_permutexvar_epi8(_mm512_add_epi8(at, _mm512_set1_epi8(1)), v);
        __m512i b2 = _mm512_permutexvar_epi8(_mm512_add_epi8(at, _mm512_set1_epi8(2)), v);
        unsigned remaining = (unsigned)__builtin_popcountll(starts);
        int cut = 0;
        for (;;) {
            const unsigned lanes = remaining < 16 ? remaining : 16;
            const unsigned took = cfold_quick_lanes(b0, b1, b2, lanes, out, &o, room, tables);
            if (took < lanes) {
                const int64_t stopAt = pos + (uint8_t)_mm_cvtsi128_si32(_mm_shuffle_epi8(_mm512_castsi512_si128(at), _mm_set1_epi8((char)took)));
                // A voiced kana, or a voicing mark that composes there with a kana of the round
                // before (the lanes compose those after a kana of their own): folded, and the next
                // window from after it.
                const int64_t special = cfold_quick_special(src, stopAt, n, out, &o, room, tables);
                if (special) {
                    pos = stopAt + special;
                    goto next;
                }
                // The code point at lane `took` is the fold loop's.
                *written = o;
                return stopAt;
            }
            remaining -= lanes;
            if (!remaining) break;
            b0 = _mm512_alignr_epi32(_mm512_setzero_si512(), b0, 4);
            b1 = _mm512_alignr_epi32(_mm512_setzero_si512(), b1, 4);
            b2 = _mm512_alignr_epi32(_mm512_setzero_si512(), b2, 4);
            at = _mm512_alignr_epi32(_mm512_setzero_si512(), at, 4);
            if ((remaining >= 32 && !_mm256_movemask_epi8(_mm512_castsi512_si256(b0))) || (remaining < CFOLD_QUICK_SHORT_ROUND && left > 64)) {
                // 32 code points of plain ASCII next: the next steps take them at once. A short
                // last round before more text: the next window's.
                end = (uint8_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(at));
                cut = 1;
                break;
            }
        }
        pos += end;
        // Stopped before what is at `first`: the fold loop's (else the next step goes on from `end`).
        if (!cut && limit == limitBad && first < 64 && (int64_t)first < left) break;
    next:;
    }
    *written = o;
    return pos;
}

int32_t cfold_quick_run_level(void) {
    return cfold_wide_run_level() >= 3 ? 3 : 0;
}

int64_t cfold_quick_pair_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                const cfold_quick_tables *tables) {
    if (level < 3 || cfold_quick_run_level() < 3) return cfold_quick_table_run_portable(src, n, out, room, written, tables, 0);
    // A table that takes nothing: for a window of ASCII, or one whose pair has no table.
    static const uint8_t none[CFOLD_QUICK_PAIR_BYTES] = { [0 ... 127] = 0xFF };
    int64_t pos = 0, o = 0;
    while (pos < n) {
        // The pair of the window's first two-byte lead, as the step over mixed scripts takes it.
        int64_t k = pos;
        while (k < n && k < pos + 64 && (src[k] & 0xE0) != 0xC0) k++;
        const uint8_t lead = k < n && k < pos + 64 ? src[k] : 0;
        const uint8_t *table = cfold_quick_pair_table(tables, lead);
        int64_t w = 0;
        // With page bits, the window that keeps ideographs; else the plain one.
        const int64_t r = tables->pages
            ? cfold_quick_pair_ideograph_window(src + pos, n - pos, out + o, room - o, &w, table ? table : none, table ? lead & 0xFE : 0,
                                                tables->lowercase, tables->pages, 1)
            : cfold_quick_pair_window(src + pos, n - pos, out + o, room - o, &w, table ? table : none, table ? lead & 0xFE : 0,
                                      tables->lowercase, 1);
        if (!r) break;
        pos += r;
        o += w;
    }
    *written = o;
    return pos;
}

int64_t cfold_quick_latin_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                 const cfold_quick_tables *tables) {
    if (level < 3 || cfold_quick_run_level() < 3 || !tables->latin) return cfold_quick_table_run_portable(src, n, out, room, written, tables, 1);
    int64_t pos = 0, o = 0;
    while (pos < n) {
        int64_t w = 0;
        const int64_t r = tables->pages ? cfold_quick_latin_ideograph_window(src + pos, n - pos, out + o, room - o, &w, tables, 1)
                                        : cfold_quick_latin_window(src + pos, n - pos, out + o, room - o, &w, tables, 1);
        if (!r) break;
        pos += r;
        o += w;
    }
    *written = o;
    return pos;
}

int64_t cfold_quick_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                           const cfold_quick_tables *tables) {
    if (level >= 3 && cfold_quick_run_level() >= 3) return cfold_quick_run_avx512(src, n, out, room, written, tables);
    return cfold_quick_run_portable(src, n, out, room, written, tables);
}

int64_t cfold_quick_run(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                        const cfold_quick_tables *tables) {
    return cfold_quick_run_at(3, src, n, out, room, written, tables);
}

#else

int32_t cfold_quick_run_level(void) { return 0; }

int64_t cfold_quick_latin_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                 const cfold_quick_tables *tables) {
    (void)level;
    return cfold_quick_table_run_portable(src, n, out, room, written, tables, 1);
}

int64_t cfold_quick_pair_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                const cfold_quick_tables *tables) {
    (void)level;
    return cfold_quick_table_run_portable(src, n, out, room, written, tables, 0);
}

int64_t cfold_quick_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                           const cfold_quick_tables *tables) {
    (void)level;
    return cfold_quick_run_portable(src, n, out, room, written, tables);
}

int64_t cfold_quick_run(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                        const cfold_quick_tables *tables) {
    return cfold_quick_run_portable(src, n, out, room, written, tables);
}

#endif
