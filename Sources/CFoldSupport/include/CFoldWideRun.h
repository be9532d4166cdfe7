// The fold's step over text of three-byte code points (ideographs, kana, CJK punctuation,
// fullwidth forms) and the plain ASCII between them. Where 32 bytes in a row (64 with AVX-512) are
// plain ASCII and code points whose fold is themselves (their page of 256 all is: the ideographs)
// or, in U+3000...U+30FF, another kana (katakana to hiragana in `search`), they go in one vector
// step; with AVX-512 so do the fullwidth forms of ASCII (the fullwidth comma to ","). Any other
// three-byte code point whose quick word is present (the ideographic space to " "), or a voiced
// kana whose fold is longer than a quick word (ヷ), is folded on its own, in the same call, and the
// vector steps go on after it. The step
// stops before what the fold loop must see itself: a code point without a quick word (a voicing
// mark, a page not built yet), a two- or four-byte sequence, a control byte, invalid UTF-8, or the
// end of the room; and after a step that folded nothing.
//
// Vector code only on x86-64: 64 bytes a step with AVX-512 (F, BW, VBMI and VBMI2), else 32 with
// AVX2 (`cfold_wide_run_level`), where the fold calls it (Chinese and Japanese text, 1.5 to 2
// times as fast); elsewhere the fold goes code point by code point. `cfold_wide_run_portable` is
// the same fold a code point at a time, on every processor: the tests compare them.
#ifndef CFOLD_WIDE_RUN_H
#define CFOLD_WIDE_RUN_H

#include <stdint.h>
#include "CFoldQuickRun.h"

/// The kana table, for U+3000 + k (k = 0...255) in sixteen rows of sixteen (row k >> 4): byte
/// `CFOLD_WIDE_KANA_DELTAS` + row is what the row's moved code points add to k (katakana to
/// hiragana: -0x60); bit k & 7 of byte `CFOLD_WIDE_KANA_FOLDS` + k / 8 says whether the table
/// folds U+3000 + k, and the same bit of `CFOLD_WIDE_KANA_MOVES` whether its fold is U+3000 + k
/// plus its row's delta (else itself).
#define CFOLD_WIDE_KANA_DELTAS 0
#define CFOLD_WIDE_KANA_FOLDS 16
#define CFOLD_WIDE_KANA_MOVES 48
#define CFOLD_WIDE_KANA_BYTES 80

/// The tables of the step, all read with relaxed atomic loads where other threads may fill them.
typedef struct {
    /// The fold's quick words, one per code point below U+10000 (0: none): bit 63 present, the
    /// fold's bytes in bits 0-31, their count in bits 32-35.
    const uint64_t *quick;
    /// The kana table (`CFOLD_WIDE_KANA_BYTES`, immutable), or NULL before page U+3000 is built.
    const uint8_t *kana;
    /// 16 words: bit b & 63 of word b >> 6 is set when every code point of U+0000 + 64 b folds
    /// to itself as three bytes (never below U+0800 nor in U+3000...U+30FF).
    const uint64_t *blocks;
    /// 4 words: bit p & 63 of word p >> 6 is set when every code point of page U+0000 + 256 p folds
    /// to itself as three bytes (its four blocks' bits): what the vector steps read.
    const uint64_t *pages;
    /// 2 words: bit k & 63 of word k >> 6 is set when U+FF00 + k (a fullwidth form of ASCII,
    /// U+FF01...U+FF5E) folds to the one byte k + 0x20, lowered from A-Z to a-z when `lowercase`
    /// (the fullwidth comma to ","), never where its block's bit is set: what the 64-byte steps
    /// fold in place of three bytes (NULL: none). The others fold them from their quick words, one
    /// by one.
    const uint64_t *fullwidth;
    /// Not 0: A-Z fold to a-z (else plain ASCII folds to itself).
    int32_t lowercase;
    /// The words of `cfold_quick_tables.folds` (relaxed loads), or NULL: a three-byte code point
    /// without a quick word whose word here is a voiced kana (`CFOLD_QUICK_VOICED`, ヷ to わ and
    /// U+3099) is folded to its six bytes, on its own, and the step goes on after it.
    const uint32_t *voiced;
} cfold_wide_tables;

/// What the tables fold the three-byte code point `v` (U+0800 and above, not a surrogate) to, or
/// 0 when they do not: the kana table (`kana`, or NULL for none) for U+3000...U+30FF, the blocks'
/// bits elsewhere. The one rule of which code points the step's tables take: the step's, and the
/// fold loop's before it calls the step.
static inline uint32_t cfold_wide_table_fold(uint32_t v, const uint8_t *kana, const uint64_t *blocks) {
    if (v - 0x3000 < 0x100) {
        const uint32_t k = v - 0x3000;
        if (!kana || !((kana[CFOLD_WIDE_KANA_FOLDS + (k >> 3)] >> (k & 7)) & 1)) return 0;
        const uint32_t moves = (kana[CFOLD_WIDE_KANA_MOVES + (k >> 3)] >> (k & 7)) & 1;
        return 0x3000 | ((k + (moves ? kana[CFOLD_WIDE_KANA_DELTAS + (k >> 4)] : 0)) & 0xFF);
    }
    const uint32_t b = v >> 6;
    return ((__atomic_load_n(&blocks[b >> 6], __ATOMIC_RELAXED) >> (b & 63)) & 1) ? v : 0;
}

/// How far ahead the step looks before it starts (see `cfold_wide_run`).
#define CFOLD_WIDE_LOOKAHEAD 128

/// Folds `src` (`n` bytes) into `out` (`room` bytes) from their starts while each code point is
/// plain ASCII (0x20...0x7F) or three bytes that the tables fold (see above); nothing at all when
/// its first `CFOLD_WIDE_LOOKAHEAD` bytes hold a two-byte lead (C0...DF) or a halfwidth or
/// fullwidth small letter (EF BD, EF BE): there the run would stop soon, and a short run costs the
/// call more than it saves (measured on mixed scripts); a shorter text is looked at whole. Returns how many
/// bytes it read, always whole code points; `*written` is how many it wrote (fewer when a fold is
/// shorter than its code point). The bytes it stores after those (up to 63, never past `room`) are
/// the caller's to overwrite. The steps of `cfold_wide_run_level()`.
int64_t cfold_wide_run(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                       const cfold_wide_tables *tables);

/// The steps `cfold_wide_run` takes on this processor: 3 AVX-512 (F, BW, VBMI and VBMI2: 64 bytes a
/// step, the text's last bytes in one masked step), 2 AVX2, 0 the portable one (other processors,
/// where the fold does not call it).
int32_t cfold_wide_run_level(void);

/// `cfold_wide_run` with the steps of `level` (0 or 1: the portable one; 2 AVX2; 3 AVX-512, capped
/// at what the processor has): the tests' way to each.
int64_t cfold_wide_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                          const cfold_wide_tables *tables);

/// The same fold a code point at a time: what the vector steps must equal as far as they go (the
/// same bytes written for the bytes read), stopping at the same code point, or earlier only where
/// a vector step folded nothing.
int64_t cfold_wide_run_portable(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                const cfold_wide_tables *tables);

#endif
