// ICUPeers: ICU-based folds that Fold's benchmarks compare against.
//
// Every signature uses <stdint.h> types only, so Swift never sees an ICU type (a Swift module that
// sees ICU's headers cannot also import Foundation, which carries a private ICU on Linux).
//
// Each peer folds one UTF-8 line into a caller buffer. `icupeer_fold` returns the length of the
// whole output; when that is larger than `capacity`, the buffer holds nothing useful: grow it to
// at least the returned length and call again. A negative return is `-status` of an ICU error
// (`icupeer_error_name(status)` names it).
#ifndef ICU_PEERS_H
#define ICU_PEERS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    /// ICU C++ `Normalizer2::getNFKCCasefoldInstance()->normalizeUTF8`, UTF-8 in and out.
    ICUPEER_NFKC_CF_UTF8 = 0,
    /// ICU C `unorm2_normalize` with the nfkc_cf instance, through UTF-16
    /// (`u_strFromUTF8`, `unorm2_normalize`, `u_strToUTF8`).
    ICUPEER_NFKC_CF_UTF16 = 1,
    /// A naive search fold with ICU's C API: NFKD, drop General_Category Mn, `u_strToLower`
    /// with the root locale, back to UTF-8.
    ICUPEER_NAIVE_FOLD = 2,
    /// The transliterator "Any-Latin; Latin-ASCII; Lower" (`utrans_openU` once per peer,
    /// `utrans_transUChars` per line).
    ICUPEER_TRANSLITERATOR = 3,
};

/// One peer with its ICU objects and scratch buffers. Not thread-safe: use one per thread.
typedef struct icupeer icupeer;

/// Creates the peer `kind` (an ICUPEER_ constant). NULL on failure, with the ICU status in `*status`.
icupeer *icupeer_create(int32_t kind, int32_t *status);
void icupeer_destroy(icupeer *peer);

/// Folds `length` bytes of UTF-8 at `src` into `dst` (see the contract at the top).
int64_t icupeer_fold(icupeer *peer, const uint8_t *src, int64_t length, uint8_t *dst, int64_t capacity);

/// ICU's word break iterator (`ubrk_open(UBRK_WORD, "")` once per thread, over a UTF-8 UText):
/// writes (start, end) byte offsets of the segments whose rule status is not UBRK_WORD_NONE into
/// `bounds` (room for `capacity_pairs` pairs) and returns how many there are (which may exceed
/// the room), or a negative `-status` on an ICU error.
int64_t icupeer_word_segments(const uint8_t *src, int64_t length, int32_t *bounds, int64_t capacity_pairs);

/// ICU's `u_errorName` for a status.
const char *icupeer_error_name(int32_t status);

/// ICU's version, as "72.1".
const char *icupeer_icu_version(void);

#ifdef __cplusplus
}
#endif

#endif
