// The fold's step over text of mixed scripts: plain ASCII and the two- and three-byte code points
// whose fold is their quick word (Greek, Cyrillic and Latin letters, ideographs, kana, fullwidth
// forms, ... in any order), 64 bytes at a time with AVX-512. Where scripts change every few words
// (a line of Russian, Greek, Chinese and English), the steps made for one script at a time
// (`cfold_pair_run`, `cfold_wide_run`) stop at each change and the fold loop goes code point by
// code point, a branch the text decides at each; this step finds every code point of 64 bytes
// from their lead bytes at once, reads their folds sixteen at a time (a load into each lane: on
// Zen 4 cheaper than one gather) and writes their folds with one byte compress, whatever their
// scripts.
//
// It stops before what the fold loop must see itself: a code point without a quick word (a
// combining mark the fold keeps, a voicing mark that composes with nothing, a page not built yet, a
// surrogate), a four-byte sequence, a control byte, invalid UTF-8, or a fold that would not fit in
// the room. Marks the fold removes wherever they stand, kana with a voicing mark, and voiced kana
// whose fold is longer than a quick word it folds itself.
//
// Vector code only on x86-64 with AVX-512 (F, BW, VBMI and VBMI2, as `cfold_wide_run_level` 3),
// where the fold calls it; elsewhere the fold goes code point by code point. `cfold_quick_run_portable`
// is the same fold a code point at a time, on every processor: the tests compare them.
#ifndef CFOLD_QUICK_RUN_H
#define CFOLD_QUICK_RUN_H

#include <stdint.h>

/// A word of `folds` whose low byte is E3 and high byte 0x98...0x9B (`word & CFOLD_QUICK_VOICED_MASK`
/// equal to `CFOLD_QUICK_VOICED`): a kana, then E3 82 and the high byte (0x99 or 0x9A, U+3099 or
/// U+309A, in the fold's tables).
#define CFOLD_QUICK_VOICED_MASK 0xFC0000FFu
#define CFOLD_QUICK_VOICED 0x980000E3u
/// Writes the six bytes of a voiced kana's word (`CFOLD_QUICK_VOICED`) at `out`: the kana's three,
/// then E3 82 and the mark's last byte.
static inline void cfold_quick_voiced_bytes(uint32_t word, uint8_t *out) {
    out[0] = (uint8_t)word;
    out[1] = (uint8_t)(word >> 8);
    out[2] = (uint8_t)(word >> 16);
    out[3] = 0xE3;
    out[4] = 0x82;
    out[5] = (uint8_t)(word >> 24);
}

/// The word of a code point the fold removes wherever it stands (a combining acute in `search`):
/// read, nothing written. No fold's word: its low byte is 0.
#define CFOLD_QUICK_REMOVED 0x80000000u

/// What the step reads.
typedef struct {
    /// One word per code point below U+10000, read with relaxed loads (see `cfold_quick_run`).
    const uint32_t *folds;
    /// The compositions of a kana (U+3000...U+30FF) with a voicing mark: entry (kana - 0x3000) << 1
    /// | (mark - 0x3099), the composite (a code point of U+3000...U+30FF) or 0; NULL where the fold
    /// composes nothing.
    const uint32_t *voicing;
    /// What U+3099, U+309A, U+FF9E and U+FF9F fold to when each is one voicing mark alone (0x3099
    /// or 0x309A), else 0.
    uint32_t marks[4];
    /// Not 0: A-Z fold to a-z.
    int32_t lowercase;
    /// The Latin table (`cfold_quick_latin_fill`, `CFOLD_QUICK_LATIN_BYTES`) filled from `folds`, or
    /// NULL: text of ASCII and the two-byte letters and marks of its leads goes 64 bytes a step
    /// without a gather.
    const uint8_t *latin;
    /// For each pair of two-byte leads (C0-C1, C2-C3, ..., DE-DF: entry (lead - 0xC0) >> 1), its
    /// pair table (`cfold_quick_pair_fill`, `CFOLD_QUICK_PAIR_BYTES`) or NULL, read with acquire
    /// loads (tables are published as the fold builds its pages); or NULL for none: text of ASCII and
    /// the letters of one pair (Cyrillic, Greek) goes 64 bytes a step without a gather.
    void *const *pairs;
    /// 4 words, read with relaxed loads: bit p & 63 of word p >> 6 set when every code point of
    /// page U+0000 + 256 p folds to itself as three bytes (never below U+0800 nor among the
    /// surrogates: `cfold_wide_tables.pages`), or NULL: the Latin and pair steps keep such code
    /// points (ideographs between Greek words) as they are.
    const uint64_t *pages;
} cfold_quick_tables;

/// A pair table's size: the Latin table's two bytes for each of the 128 code points of a pair of
/// leads P, P + 1 (P even): entry `(lead - P) * 64 + (c & 0x3F)`, the first bytes then the second.
#define CFOLD_QUICK_PAIR_BYTES 256

/// Fills `table` (`CFOLD_QUICK_PAIR_BYTES`) for the pair of leads `lead` and `lead + 1` (`lead`
/// even, C2...DE) from the words of `folds`, as `cfold_quick_latin_fill` does.
void cfold_quick_pair_fill(const uint32_t *folds, uint32_t lead, uint8_t *table);

/// The pair step alone, for the tests: as `cfold_quick_latin_run_at`, with the pair tables of
/// `tables->pairs` (each window takes the pair of its first byte that is not ASCII).
int64_t cfold_quick_pair_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                const cfold_quick_tables *tables);

/// The Latin table's size: two bytes for each code point of the leads C2...C6 (U+0080...U+01BF)
/// and CC (U+0300...U+033F, the combining marks accented Latin text uses), 384 in all, the first
/// bytes then the second. Entry `g * 64 + (c & 0x3F)` is the code point of lead C2 + g (g 0...4)
/// or CC (g 5) and continuation byte c: its fold in place of its two bytes, when its word in
/// `folds` is at most two bytes: first 0 and second the byte of a one-byte fold, both bytes of a
/// two-byte fold, both 0 for `CFOLD_QUICK_REMOVED`; first 0xFF (no fold's byte) where the step
/// leaves it to the others (no word, or a longer one).
#define CFOLD_QUICK_LATIN_BYTES 768

/// Fills `latin` (`CFOLD_QUICK_LATIN_BYTES`) from the words of `folds` (relaxed loads).
void cfold_quick_latin_fill(const uint32_t *folds, uint8_t *latin);

/// The Latin step alone, for the tests: from `src`, each 64 bytes (or the text's last bytes) of
/// plain ASCII, the code points the Latin table folds and the three-byte code points of the pages
/// that fold to themselves (`pages`), up to the first other code point, at
/// level 3 (AVX-512) or the portable way (any other level); what `cfold_quick_run` writes for the
/// bytes it reads. Returns how many bytes it read; `*written` how many it wrote.
int64_t cfold_quick_latin_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                 const cfold_quick_tables *tables);

/// Folds `src` (`n` bytes) into `out` (`room` bytes) from their starts while each code point is
/// plain ASCII (0x20...0x7F, A-Z to a-z when `lowercase`) or a valid two- or three-byte sequence
/// whose word in `folds` is not 0, or a voicing mark that composes with the kana before it (below).
/// `folds` holds one word per code point below U+10000, read with
/// relaxed loads: the bytes of its quick word's fold from the low byte (one to four, none of them
/// 0), or 0 where it has no quick word; a fold is its word's bytes that are not 0 (the words of
/// U+0000...U+007F are not read). A word `E3 xx yy 99` or `E3 xx yy 9A` (low byte first, which no
/// fold is: a three-byte code point and a continuation byte) is a kana and its voicing mark, the
/// six bytes `E3 xx yy E3 82 99` or `9A` (`CFOLD_QUICK_VOICED`: a kana whose voiced form has no
/// code point in the fold, ヷ to わ and U+3099, longer than a quick word); `CFOLD_QUICK_REMOVED`
/// writes nothing. A code point whose word is 0 that is one of the four voicing marks (`marks`),
/// right after a three-byte code point this call read whose word is one kana of three bytes (E3 xx
/// yy) that composes with it (`voicing`), overwrites that kana with the composite (ｶﾞ to が).
/// Returns how many bytes it read, always whole code points; `*written` is how many it wrote. It
/// writes nothing past those.
int64_t cfold_quick_run(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                        const cfold_quick_tables *tables);

/// The steps `cfold_quick_run` takes on this processor: 3 AVX-512 (64 bytes a step), 0 the
/// portable one (other processors, where the fold does not call it).
int32_t cfold_quick_run_level(void);

/// `cfold_quick_run` with the steps of `level` (3 AVX-512, capped at what the processor has; any
/// other: the portable one): the tests' way to each.
int64_t cfold_quick_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                           const cfold_quick_tables *tables);

/// The same fold a code point at a time: what the vector steps must equal, the same bytes
/// written for the bytes read, stopping at the same code point, or earlier only where the fold of
/// a step's code points would not fit in the room.
int64_t cfold_quick_run_portable(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                 const cfold_quick_tables *tables);

#endif
