// The fuzzers' oracle: ICU's Normalizer2, called directly (independently of Fold's CFoldICU).
// This header uses <stdint.h> types only, so Swift never sees an ICU type.
#ifndef FUZZ_ICU_H
#define FUZZ_ICU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    FUZZ_ICU_NFC = 0,
    FUZZ_ICU_NFD = 1,
    FUZZ_ICU_NFKC = 2,
    FUZZ_ICU_NFKD = 3,
    FUZZ_ICU_NFKC_CASEFOLD = 4,
};

/// Normalizes UTF-8 `src[0..<len]` with ICU's C++ `Normalizer2::normalizeUTF8` for `form` (a
/// FUZZ_ICU_ value). Writes at most `cap` bytes to `dst` and returns the full output length
/// (call again with a larger buffer when it exceeds `cap`), or -(ICU status) on failure.
/// Invalid UTF-8 becomes U+FFFD, as ICU does; the fuzzers pass valid UTF-8 only.
int fuzz_icu_normalize(int form, const uint8_t *src, int len, uint8_t *dst, int cap);

/// ICU's version (`u_getVersion`) as major * 100 + minor, e.g. 7201.
int fuzz_icu_version(void);

#ifdef __cplusplus
}
#endif

#endif
