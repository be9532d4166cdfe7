// The fold's step over text of mixed scripts: plain ASCII and the two- and three-byte code points
// whose fold is their quick word (Greek, Cyrillic and Latin letters, ideographs, kana, fullwidth
// forms, ... in any order), 64 bytes at a time with AVX-512. Where scripts change every few words
// (a line of Russian, Greek, Chinese and English), the steps made for one script at a time
// (`cfold_pair_run`, `cfold_wide_run`) stop at each change and the fold loop goes code point by
// code point, a branch the text decides at each; this step finds every code point of 64 bytes
// from their lead bytes at once, reads their folds with one gather and writes their folds with
// one byte compress, whatever their scripts.
//
// It stops before what the fold loop must see itself: a code point without a quick word (a
// combining mark, a voicing mark, a page not built yet, a surrogate), a four-byte sequence, a
// control byte, invalid UTF-8, or a fold that would not fit in the room.
//
// Vector code only on x86-64 with AVX-512 (F, BW, VBMI and VBMI2, as `cfold_wide_run_level` 3),
// where the fold calls it; elsewhere the fold goes code point by code point. `cfold_quick_run_portable`
// is the same fold a code point at a time, on every processor: the tests compare them.
#ifndef CFOLD_QUICK_RUN_H
#define CFOLD_QUICK_RUN_H

#include <stdint.h>

/// Folds `src` (`n` bytes) into `out` (`room` bytes) from their starts while each code point is
/// plain ASCII (0x20...0x7F, A-Z to a-z when `lowercase`) or a valid two- or three-byte sequence
/// whose word in `folds` is not 0. `folds` holds one word per code point below U+10000, read with
/// relaxed loads: the bytes of its quick word's fold from the low byte (one to four, none of them
/// 0), or 0 where it has no quick word; a fold is its word's bytes that are not 0 (the words of
/// U+0000...U+007F are not read). Returns how many
/// bytes it read, always whole code points; `*written` is how many it wrote. It writes nothing
/// past those.
int64_t cfold_quick_run(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                        const uint32_t *folds, int32_t lowercase);

/// The steps `cfold_quick_run` takes on this processor: 3 AVX-512 (64 bytes a step), 0 the
/// portable one (other processors, where the fold does not call it).
int32_t cfold_quick_run_level(void);

/// `cfold_quick_run` with the steps of `level` (3 AVX-512, capped at what the processor has; any
/// other: the portable one): the tests' way to each.
int64_t cfold_quick_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                           const uint32_t *folds, int32_t lowercase);

/// The same fold a code point at a time: what the vector steps must equal, the same bytes
/// written for the bytes read, stopping at the same code point, or earlier only where the fold of
/// a step's code points would not fit in the room.
int64_t cfold_quick_run_portable(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, int64_t *written,
                                 const uint32_t *folds, int32_t lowercase);

#endif
