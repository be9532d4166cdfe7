// What Fold needs from C that is not ICU, and nothing else. Swift imports the module
// CFoldSupport through this header, which includes the four that hold it:
// - CFoldPlatform.h: atomics on the slots of Fold's own tables, and the C library's memmem;
// - CFoldBytes.h: the byte-parallel steps (SSE2 where the target has it, eight-byte words
//   elsewhere) of the tokenizer's windows and of the fold over plain ASCII;
// - CFoldPairRun.h: the fold's step over letters of one two-byte pair (Cyrillic, Greek, ...)
//   and the ASCII between them, sixteen bytes at once where the processor has byte shuffles;
// - CFoldWideRun.h: the fold's step over ideographs, kana and the other three-byte code points,
//   32 bytes at once with AVX2;
// - CFoldQuickRun.h: the fold's step over text of mixed scripts, every code point whose fold is
//   its quick word, 64 bytes at once with AVX-512.
#ifndef CFOLD_SUPPORT_H
#define CFOLD_SUPPORT_H

#include "CFoldPlatform.h"
#include "CFoldBytes.h"
#include "CFoldPairRun.h"
#include "CFoldWideRun.h"
#include "CFoldQuickRun.h"

#endif
