// The ICU peers behind ICUPeers.h. Each keeps its ICU objects and UTF-16 scratch buffers for its
// whole life, so a line costs no allocation once the buffers have grown to the longest line.
#include "ICUPeers.h"

#include <unicode/bytestream.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>
#include <unicode/uversion.h>

#include <climits>
#include <cstdio>
#include <vector>

namespace {

constexpr int64_t kMaxLength = INT32_MAX / 4;

int64_t fail(UErrorCode status) { return -static_cast<int64_t>(status > 0 ? status : U_INTERNAL_PROGRAM_ERROR); }

} // namespace

struct icupeer {
    int32_t kind = 0;
    const icu::Normalizer2 *nfkcCF = nullptr; // kind 0
    const UNormalizer2 *norm = nullptr;        // kinds 1 (nfkc_cf) and 2 (nfkd)
    UTransliterator *trans = nullptr;          // kind 3
    std::vector<UChar> a, b;                   // UTF-16 scratch

    ~icupeer() {
        if (trans) utrans_close(trans);
    }

    // UTF-8 -> UTF-16 into `a`; returns the UTF-16 length, or a negative failure.
    int64_t toUTF16(const uint8_t *src, int32_t length, std::vector<UChar> &out, int32_t extra = 0) {
        for (;;) {
            UErrorCode status = U_ZERO_ERROR;
            int32_t n = 0;
            u_strFromUTF8WithSub(out.data(), static_cast<int32_t>(out.size()), &n,
                                 reinterpret_cast<const char *>(src), length, 0xFFFD, nullptr, &status);
            if (status == U_BUFFER_OVERFLOW_ERROR || n + extra > static_cast<int32_t>(out.size())) {
                out.resize(static_cast<size_t>(n) + extra + 16);
                if (status == U_BUFFER_OVERFLOW_ERROR) continue;
                return n; // fitted, and now there is room for `extra` too
            }
            if (U_FAILURE(status)) return fail(status);
            return n;
        }
    }

    // UTF-16 -> UTF-8 into the caller's buffer; returns the whole output length.
    static int64_t toUTF8(const UChar *src, int32_t length, uint8_t *dst, int64_t capacity) {
        UErrorCode status = U_ZERO_ERROR;
        int32_t n = 0;
        int32_t cap = capacity > INT32_MAX ? INT32_MAX : static_cast<int32_t>(capacity);
        u_strToUTF8(reinterpret_cast<char *>(dst), cap, &n, src, length, &status);
        if (status == U_BUFFER_OVERFLOW_ERROR) return n;
        if (U_FAILURE(status)) return fail(status);
        return n;
    }

    // unorm2_normalize(norm, a[0..<n]) into b; returns the length or a negative failure.
    int64_t normalize(int32_t n) {
        for (;;) {
            UErrorCode status = U_ZERO_ERROR;
            int32_t m = unorm2_normalize(norm, a.data(), n, b.data(), static_cast<int32_t>(b.size()), &status);
            if (status == U_BUFFER_OVERFLOW_ERROR) {
                b.resize(static_cast<size_t>(m) + 16);
                continue;
            }
            if (U_FAILURE(status)) return fail(status);
            return m;
        }
    }

    int64_t nfkcCasefoldUTF8(const uint8_t *src, int32_t length, uint8_t *dst, int64_t capacity) {
        UErrorCode status = U_ZERO_ERROR;
        int32_t cap = capacity > INT32_MAX ? INT32_MAX : static_cast<int32_t>(capacity);
        icu::CheckedArrayByteSink sink(reinterpret_cast<char *>(dst), cap);
        nfkcCF->normalizeUTF8(0, icu::StringPiece(reinterpret_cast<const char *>(src), length), sink,
                              nullptr, status);
        if (U_FAILURE(status)) return fail(status);
        // After an overflow, NumberOfBytesAppended is the length the whole output needs.
        return sink.NumberOfBytesAppended();
    }

    int64_t nfkcCasefoldUTF16(const uint8_t *src, int32_t length, uint8_t *dst, int64_t capacity) {
        int64_t n = toUTF16(src, length, a);
        if (n < 0) return n;
        int64_t m = normalize(static_cast<int32_t>(n));
        if (m < 0) return m;
        return toUTF8(b.data(), static_cast<int32_t>(m), dst, capacity);
    }

    int64_t naiveFold(const uint8_t *src, int32_t length, uint8_t *dst, int64_t capacity) {
        int64_t n = toUTF16(src, length, a);
        if (n < 0) return n;
        int64_t m = normalize(static_cast<int32_t>(n)); // NFKD into b
        if (m < 0) return m;
        // Drop General_Category Mn, in place.
        int32_t kept = 0;
        for (int32_t i = 0; i < m;) {
            int32_t start = i;
            UChar32 c;
            U16_NEXT(b.data(), i, static_cast<int32_t>(m), c);
            if (u_charType(c) == U_NON_SPACING_MARK) continue;
            while (start < i) b[kept++] = b[start++];
        }
        // Lowercase with the root locale, into a.
        for (;;) {
            UErrorCode status = U_ZERO_ERROR;
            int32_t l = u_strToLower(a.data(), static_cast<int32_t>(a.size()), b.data(), kept, "", &status);
            if (status == U_BUFFER_OVERFLOW_ERROR) {
                a.resize(static_cast<size_t>(l) + 16);
                continue;
            }
            if (U_FAILURE(status)) return fail(status);
            return toUTF8(a.data(), l, dst, capacity);
        }
    }

    int64_t transliterate(const uint8_t *src, int32_t length, uint8_t *dst, int64_t capacity) {
        // utrans_transUChars works in place: give it room to grow (and start over if it needs more).
        int32_t extra = length + 64;
        for (;;) {
            int64_t n = toUTF16(src, length, a, extra);
            if (n < 0) return n;
            UErrorCode status = U_ZERO_ERROR;
            int32_t textLength = static_cast<int32_t>(n);
            int32_t limit = textLength;
            utrans_transUChars(trans, a.data(), &textLength, static_cast<int32_t>(a.size()), 0, &limit, &status);
            if (status == U_BUFFER_OVERFLOW_ERROR) {
                extra = textLength - static_cast<int32_t>(n) + 64;
                continue;
            }
            if (U_FAILURE(status)) return fail(status);
            return toUTF8(a.data(), textLength, dst, capacity);
        }
    }
};

extern "C" {

icupeer *icupeer_create(int32_t kind, int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    auto *peer = new icupeer();
    peer->kind = kind;
    peer->a.resize(1024);
    peer->b.resize(1024);
    switch (kind) {
    case ICUPEER_NFKC_CF_UTF8:
        peer->nfkcCF = icu::Normalizer2::getNFKCCasefoldInstance(err);
        break;
    case ICUPEER_NFKC_CF_UTF16:
        peer->norm = unorm2_getNFKCCasefoldInstance(&err);
        break;
    case ICUPEER_NAIVE_FOLD:
        peer->norm = unorm2_getNFKDInstance(&err);
        break;
    case ICUPEER_TRANSLITERATOR: {
        static const UChar id[] = u"Any-Latin; Latin-ASCII; Lower";
        UParseError parseError;
        peer->trans = utrans_openU(id, -1, UTRANS_FORWARD, nullptr, -1, &parseError, &err);
        break;
    }
    default:
        err = U_ILLEGAL_ARGUMENT_ERROR;
    }
    if (status) *status = err;
    if (U_FAILURE(err)) {
        delete peer;
        return nullptr;
    }
    return peer;
}

void icupeer_destroy(icupeer *peer) { delete peer; }

int64_t icupeer_fold(icupeer *peer, const uint8_t *src, int64_t length, uint8_t *dst, int64_t capacity) {
    if (length < 0 || length > kMaxLength || capacity < 0) return fail(U_ILLEGAL_ARGUMENT_ERROR);
    int32_t len = static_cast<int32_t>(length);
    switch (peer->kind) {
    case ICUPEER_NFKC_CF_UTF8: return peer->nfkcCasefoldUTF8(src, len, dst, capacity);
    case ICUPEER_NFKC_CF_UTF16: return peer->nfkcCasefoldUTF16(src, len, dst, capacity);
    case ICUPEER_NAIVE_FOLD: return peer->naiveFold(src, len, dst, capacity);
    case ICUPEER_TRANSLITERATOR: return peer->transliterate(src, len, dst, capacity);
    default: return fail(U_ILLEGAL_ARGUMENT_ERROR);
    }
}

const char *icupeer_error_name(int32_t status) { return u_errorName(static_cast<UErrorCode>(status)); }

const char *icupeer_icu_version(void) {
    static char text[U_MAX_VERSION_STRING_LENGTH];
    UVersionInfo v;
    u_getVersion(v);
    u_versionToString(v, text);
    return text;
}

} // extern "C"

namespace {
struct ThreadWordIterator {
    UBreakIterator *iterator = nullptr;
    ~ThreadWordIterator() {
        if (iterator != nullptr) ubrk_close(iterator);
    }
};
thread_local ThreadWordIterator peer_word_iterator;
} // namespace

int64_t icupeer_word_segments(const uint8_t *src, int64_t length, int32_t *bounds, int64_t capacity_pairs) {
    UErrorCode err = U_ZERO_ERROR;
    if (peer_word_iterator.iterator == nullptr) {
        peer_word_iterator.iterator = ubrk_open(UBRK_WORD, "", nullptr, 0, &err);
        if (U_FAILURE(err)) {
            peer_word_iterator.iterator = nullptr;
            return -static_cast<int64_t>(err);
        }
    }
    UBreakIterator *bi = peer_word_iterator.iterator;
    UText text = UTEXT_INITIALIZER;
    utext_openUTF8(&text, reinterpret_cast<const char *>(src), length, &err);
    if (U_FAILURE(err)) return -static_cast<int64_t>(err);
    ubrk_setUText(bi, &text, &err);
    int64_t count = 0;
    if (U_SUCCESS(err)) {
        int32_t start = ubrk_first(bi);
        for (int32_t end = ubrk_next(bi); end != UBRK_DONE; start = end, end = ubrk_next(bi)) {
            if (ubrk_getRuleStatus(bi) == UBRK_WORD_NONE) continue;
            if (count < capacity_pairs) {
                bounds[2 * count] = start;
                bounds[2 * count + 1] = end;
            }
            count++;
        }
    }
    UErrorCode detach = U_ZERO_ERROR;
    UText empty = UTEXT_INITIALIZER;
    utext_openUTF8(&empty, "", 0, &detach);
    ubrk_setUText(bi, &empty, &detach);
    utext_close(&empty);  // the iterator keeps its own clone; not closing it leaked its buffers per call
    utext_close(&text);
    return U_FAILURE(err) ? -static_cast<int64_t>(err) : count;
}
