// The fold's step over text of one two-byte "pair" (Cyrillic, Greek, Armenian, Hebrew, ...):
// sixteen bytes at once, where each is plain ASCII or half of a two-byte letter whose fold is
// one letter of the same pair. A pair is two neighbouring lead bytes (D0 and D1 for U+0400 to
// U+047F): 128 code points whose UTF-8 differs in the lead's last bit and the continuation
// byte's six, so a letter's fold is a 7-bit index into its pair, and a table of 128 bytes (the
// profile's, built from its quick words) folds a whole pair with byte shuffles.
//
// Vector code where the processor has it: chosen at run time on x86-64 (AVX2, 32 bytes a step;
// else SSSE3, 16), NEON on AArch64 (16; Apple silicon, ARM servers); elsewhere (WebAssembly)
// `cfold_pair_run_level` says 0 and the fold goes code point by code point. `cfold_pair_run_portable` is the same step a code point at a time: the tests compare
// each level this processor has with it.
#ifndef CFOLD_PAIR_RUN_H
#define CFOLD_PAIR_RUN_H

#include <stdint.h>

/// A pair table's entry for a code point whose fold is one code point of the same pair, alone:
/// `CFOLD_PAIR_FOLDS | index` (index 0...127 of the fold in the pair); 0 for every other.
#define CFOLD_PAIR_FOLDS 0x80

/// The vector steps this processor has: 0 none (`cfold_pair_run` must not be called), 1 SSSE3
/// (x86-64) or NEON (AArch64), 2 AVX2 and SSSE3.
int32_t cfold_pair_run_level(void);

/// Folds `src` (`n` bytes readable) into `out` (`room` bytes writable) from its start, 32 or 16
/// bytes a step, while every byte is plain ASCII (0x20...0x7F: A-Z lowercased when `lowercase`
/// is not 0) or half of a code point of the pair whose leads are `lead & 0xFE` and `lead | 1`
/// that `targets` (128 bytes, `CFOLD_PAIR_FOLDS` entries) folds. Stops before the first other
/// byte, or when fewer than 17 bytes are left to read or 16 to write (a step reads one byte
/// more than it folds); returns how many bytes it
/// folded (as many as it wrote: a pair's folds keep their length), always whole code points.
/// The bytes it stores after those (up to 31) are the caller's to overwrite.
int64_t cfold_pair_run(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets, uint8_t lead,
                       int32_t lowercase);

/// `cfold_pair_run` with the steps of `level` (0 the portable one, 1 SSSE3 or NEON, 2 AVX2;
/// capped at what the processor has): the tests' way to each.
int64_t cfold_pair_run_at(int32_t level, const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets,
                          uint8_t lead, int32_t lowercase);

/// The same fold a code point at a time, on every processor, up to the first other byte or the
/// end of `src` or `out`: what the vector steps must equal, as far as they go (they stop at the
/// same byte, or earlier only within 32 bytes of the end).
int64_t cfold_pair_run_portable(const uint8_t *src, int64_t n, uint8_t *out, int64_t room, const uint8_t *targets,
                                uint8_t lead, int32_t lowercase);

#endif
