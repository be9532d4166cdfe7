// Wrappers over ICU for Fold. See include/CFoldICU.h for the contract of each function.
#include "CFoldICU.h"

#include <unicode/utypes.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/normalizer2.h>
#include <unicode/bytestream.h>
#include <unicode/ustring.h>
#include <unicode/uscript.h>
#include <unicode/utrans.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>
#include <unicode/uversion.h>
#include <unicode/locid.h>
#include <unicode/unistr.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

using icu::Normalizer2;

namespace {

const Normalizer2 *normalizer(int32_t form, UErrorCode &status) {
    switch (form) {
    case CFOLD_FORM_NFC: return Normalizer2::getNFCInstance(status);
    case CFOLD_FORM_NFD: return Normalizer2::getNFDInstance(status);
    case CFOLD_FORM_NFKC: return Normalizer2::getNFKCInstance(status);
    case CFOLD_FORM_NFKD: return Normalizer2::getNFKDInstance(status);
    case CFOLD_FORM_NFKC_CASEFOLD: return Normalizer2::getNFKCCasefoldInstance(status);
    default:
        if (U_SUCCESS(status)) status = U_ILLEGAL_ARGUMENT_ERROR;
        return nullptr;
    }
}

uint8_t *copy_out(const std::string &s, int32_t *out_length, int32_t *status) {
    uint8_t *out = static_cast<uint8_t *>(std::malloc(s.size() + 1));
    if (out == nullptr) {
        *status = U_MEMORY_ALLOCATION_ERROR;
        return nullptr;
    }
    std::memcpy(out, s.data(), s.size());
    out[s.size()] = 0;
    *out_length = static_cast<int32_t>(s.size());
    return out;
}

// Writes a UTF-16 string as UTF-32, returning the full length.
int32_t utf16_to_utf32(const UChar *s, int32_t n, uint32_t *dst, int32_t capacity) {
    int32_t count = 0;
    for (int32_t i = 0; i < n;) {
        UChar32 c;
        U16_NEXT(s, i, n, c);
        if (count < capacity) dst[count] = static_cast<uint32_t>(c);
        count++;
    }
    return count;
}

// Appends a UTF-32 string to a UTF-16 UnicodeString.
icu::UnicodeString utf32_to_unicode_string(const uint32_t *src, int32_t length) {
    icu::UnicodeString s;
    for (int32_t i = 0; i < length; i++) s.append(static_cast<UChar32>(src[i]));
    return s;
}

} // namespace

extern "C" {

const char *cfold_error_name(int32_t status) {
    return u_errorName(static_cast<UErrorCode>(status));
}

void cfold_unicode_version(uint8_t out[4]) {
    UVersionInfo v;
    u_getUnicodeVersion(v);
    std::memcpy(out, v, 4);
}

void cfold_icu_version(uint8_t out[4]) {
    UVersionInfo v;
    u_getVersion(v);
    std::memcpy(out, v, 4);
}

uint8_t *cfold_normalize_utf8(int32_t form, const uint8_t *src, int32_t length,
                              int32_t *out_length, int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    *out_length = 0;
    const Normalizer2 *n = normalizer(form, err);
    if (U_FAILURE(err)) {
        *status = err;
        return nullptr;
    }
    std::string result;
    result.reserve(static_cast<size_t>(length) + 16);
    icu::StringByteSink<std::string> sink(&result);
    n->normalizeUTF8(0, icu::StringPiece(reinterpret_cast<const char *>(src), length), sink,
                     nullptr, err);
    *status = err;
    if (U_FAILURE(err)) return nullptr;
    return copy_out(result, out_length, status);
}

static uint32_t fold_case_options(int32_t options) {
    return options == CFOLD_FOLD_CASE_TURKIC ? U_FOLD_CASE_EXCLUDE_SPECIAL_I : U_FOLD_CASE_DEFAULT;
}

static_assert(CFOLD_FOLD_CASE_DEFAULT == U_FOLD_CASE_DEFAULT, "CFOLD_FOLD_CASE_DEFAULT");

uint8_t *cfold_fold_case_utf8(const uint8_t *src, int32_t length, int32_t options,
                              int32_t *out_length, int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    *out_length = 0;
    icu::UnicodeString in = icu::UnicodeString::fromUTF8(
        icu::StringPiece(reinterpret_cast<const char *>(src), length));
    in.foldCase(fold_case_options(options));
    if (in.isBogus()) {
        *status = U_MEMORY_ALLOCATION_ERROR;
        return nullptr;
    }
    std::string result;
    in.toUTF8String(result);
    *status = err;
    return copy_out(result, out_length, status);
}

uint8_t *cfold_to_lower_utf8(const uint8_t *src, int32_t length, const char *locale,
                             int32_t *out_length, int32_t *status) {
    *out_length = 0;
    icu::UnicodeString in = icu::UnicodeString::fromUTF8(
        icu::StringPiece(reinterpret_cast<const char *>(src), length));
    in.toLower(icu::Locale(locale));
    if (in.isBogus()) {
        *status = U_MEMORY_ALLOCATION_ERROR;
        return nullptr;
    }
    std::string result;
    in.toUTF8String(result);
    *status = U_ZERO_ERROR;
    return copy_out(result, out_length, status);
}

void cfold_free(void *pointer) { std::free(pointer); }

int32_t cfold_decompose(int32_t form, uint32_t code_point, uint32_t *dst, int32_t capacity,
                        int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    const Normalizer2 *n = normalizer(form, err);
    if (U_FAILURE(err)) {
        *status = err;
        return 0;
    }
    icu::UnicodeString in(static_cast<UChar32>(code_point));
    icu::UnicodeString out = n->normalize(in, err);
    *status = err;
    if (U_FAILURE(err)) return 0;
    return utf16_to_utf32(out.getBuffer(), out.length(), dst, capacity);
}

int32_t cfold_fold_case(uint32_t code_point, int32_t options, uint32_t *dst, int32_t capacity,
                        int32_t *status) {
    UChar in[2];
    int32_t n = 0;
    U16_APPEND_UNSAFE(in, n, static_cast<UChar32>(code_point));
    UChar out[16];
    UErrorCode err = U_ZERO_ERROR;
    int32_t len = u_strFoldCase(out, 16, in, n, fold_case_options(options), &err);
    *status = err;
    if (U_FAILURE(err)) return 0;
    return utf16_to_utf32(out, len, dst, capacity);
}

uint8_t cfold_combining_class(uint32_t code_point) {
    return u_getCombiningClass(static_cast<UChar32>(code_point));
}

int32_t cfold_nfc_quick_check(uint32_t code_point) {
    return u_getIntPropertyValue(static_cast<UChar32>(code_point), UCHAR_NFC_QUICK_CHECK);
}

int32_t cfold_compose_pair(uint32_t first, uint32_t second) {
    UErrorCode err = U_ZERO_ERROR;
    const UNormalizer2 *nfc = unorm2_getNFCInstance(&err);
    if (U_FAILURE(err)) return -1;
    UChar32 c = unorm2_composePair(nfc, static_cast<UChar32>(first), static_cast<UChar32>(second));
    return c < 0 ? -1 : c;
}

int32_t cfold_canonical_pair(uint32_t code_point, uint32_t *first, uint32_t *second) {
    UErrorCode err = U_ZERO_ERROR;
    const UNormalizer2 *nfc = unorm2_getNFCInstance(&err);
    if (U_FAILURE(err)) return 0;
    UChar buf[8];
    int32_t len = unorm2_getRawDecomposition(nfc, static_cast<UChar32>(code_point), buf, 8, &err);
    if (U_FAILURE(err) || len <= 0) return 0;
    uint32_t cps[4];
    int32_t n = utf16_to_utf32(buf, len, cps, 4);
    if (n != 2) return 0;
    *first = cps[0];
    *second = cps[1];
    return 1;
}

int32_t cfold_general_category(uint32_t code_point) {
    return u_charType(static_cast<UChar32>(code_point));
}

const char *cfold_general_category_name(uint32_t code_point) {
    const char *name = u_getPropertyValueName(UCHAR_GENERAL_CATEGORY,
                                              u_charType(static_cast<UChar32>(code_point)),
                                              U_SHORT_PROPERTY_NAME);
    return name ? name : "";
}

int32_t cfold_has_property(uint32_t code_point, int32_t which) {
    UProperty p;
    switch (which) {
    case CFOLD_PROP_DEFAULT_IGNORABLE: p = UCHAR_DEFAULT_IGNORABLE_CODE_POINT; break;
    case CFOLD_PROP_WHITE_SPACE: p = UCHAR_WHITE_SPACE; break;
    case CFOLD_PROP_DASH: p = UCHAR_DASH; break;
    case CFOLD_PROP_IDEOGRAPHIC: p = UCHAR_IDEOGRAPHIC; break;
    default: return 0;
    }
    return u_hasBinaryProperty(static_cast<UChar32>(code_point), p) ? 1 : 0;
}

int32_t cfold_script(uint32_t code_point) {
    UErrorCode err = U_ZERO_ERROR;
    UScriptCode s = uscript_getScript(static_cast<UChar32>(code_point), &err);
    return U_FAILURE(err) ? -1 : s;
}

int32_t cfold_script_extensions(uint32_t code_point, int32_t *dst, int32_t capacity,
                                int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    UScriptCode scripts[64];
    int32_t n = uscript_getScriptExtensions(static_cast<UChar32>(code_point), scripts, 64, &err);
    *status = err;
    if (U_FAILURE(err)) return 0;
    for (int32_t i = 0; i < n && i < capacity; i++) dst[i] = scripts[i];
    return n;
}

int32_t cfold_script_code(const char *short_name) {
    return u_getPropertyValueEnum(UCHAR_SCRIPT, short_name);
}

const char *cfold_script_name(int32_t script) {
    const char *n = uscript_getShortName(static_cast<UScriptCode>(script));
    return n ? n : "";
}

int32_t cfold_char_name(uint32_t code_point, char *dst, int32_t capacity, int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    char buf[256];
    int32_t len = u_charName(static_cast<UChar32>(code_point), U_UNICODE_CHAR_NAME, buf,
                             sizeof buf, &err);
    if (U_SUCCESS(err) && len == 0) {
        err = U_ZERO_ERROR;
        len = u_charName(static_cast<UChar32>(code_point), U_CHAR_NAME_ALIAS, buf, sizeof buf,
                         &err);
    }
    if (U_SUCCESS(err) && len == 0) {
        err = U_ZERO_ERROR;
        len = u_charName(static_cast<UChar32>(code_point), U_EXTENDED_CHAR_NAME, buf,
                         sizeof buf, &err);
    }
    *status = err;
    if (U_FAILURE(err)) return 0;
    if (capacity > 0) {
        int32_t n = len < capacity ? len : capacity;
        std::memcpy(dst, buf, static_cast<size_t>(n));
    }
    return len;
}

int32_t cfold_char_from_name(const char *name) {
    UErrorCode err = U_ZERO_ERROR;
    UChar32 c = u_charFromName(U_UNICODE_CHAR_NAME, name, &err);
    return U_SUCCESS(err) ? static_cast<int32_t>(c) : -1;
}

int32_t cfold_integer_value(uint32_t code_point, int64_t *value) {
    double v = u_getNumericValue(static_cast<UChar32>(code_point));
    if (v == U_NO_NUMERIC_VALUE || v < 0 || v > 9007199254740992.0) return 0;
    int64_t whole = static_cast<int64_t>(v);
    if (static_cast<double>(whole) != v) return 0;
    *value = whole;
    return 1;
}

static std::mutex latin_ascii_lock;
static UTransliterator *latin_ascii = nullptr;
static UErrorCode latin_ascii_open_status = U_ZERO_ERROR;

int32_t cfold_latin_ascii(const uint32_t *src, int32_t length, uint32_t *dst, int32_t capacity,
                          int32_t *status) {
    std::lock_guard<std::mutex> guard(latin_ascii_lock);
    if (latin_ascii == nullptr && U_SUCCESS(latin_ascii_open_status)) {
        UChar id[] = u"Latin-ASCII";
        latin_ascii = utrans_openU(id, -1, UTRANS_FORWARD, nullptr, 0, nullptr,
                                   &latin_ascii_open_status);
    }
    if (latin_ascii == nullptr || U_FAILURE(latin_ascii_open_status)) {
        *status = U_FAILURE(latin_ascii_open_status) ? latin_ascii_open_status
                                                     : U_INTERNAL_PROGRAM_ERROR;
        return 0;
    }
    icu::UnicodeString text = utf32_to_unicode_string(src, length);
    int32_t textLength = text.length();
    // Latin-ASCII expands one UTF-16 unit into at most a few; leave ample room.
    std::vector<UChar> buf(static_cast<size_t>(textLength) * 8 + 64);
    text.extract(0, textLength, buf.data());
    int32_t limit = textLength;
    UErrorCode err = U_ZERO_ERROR;
    utrans_transUChars(latin_ascii, buf.data(), &textLength, static_cast<int32_t>(buf.size()), 0,
                       &limit, &err);
    *status = err;
    if (U_FAILURE(err)) return 0;
    return utf16_to_utf32(buf.data(), textLength, dst, capacity);
}

namespace {
// One word break iterator per thread: opening one costs far more than segmenting a title.
// A break iterator must not be shared between threads; each thread owns its own.
struct ThreadBreakIterator {
    UBreakIterator *iterator = nullptr;
    ~ThreadBreakIterator() {
        if (iterator != nullptr) ubrk_close(iterator);
    }
};
thread_local ThreadBreakIterator thread_word_iterator;
} // namespace

int32_t cfold_word_segments(const uint8_t *utf8, int32_t length, int32_t *bounds,
                            int32_t capacity_pairs, int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    if (thread_word_iterator.iterator == nullptr) {
        thread_word_iterator.iterator = ubrk_open(UBRK_WORD, "", nullptr, 0, &err);
        if (U_FAILURE(err)) {
            thread_word_iterator.iterator = nullptr;
            *status = err;
            return 0;
        }
    }
    UBreakIterator *bi = thread_word_iterator.iterator;
    UText text = UTEXT_INITIALIZER;
    utext_openUTF8(&text, reinterpret_cast<const char *>(utf8), length, &err);
    if (U_FAILURE(err)) {
        *status = err;
        return 0;
    }
    ubrk_setUText(bi, &text, &err);
    int32_t count = 0;
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
    // Detach the text before it goes out of scope. The iterator keeps its own shallow clone of
    // what it is given, so both UTexts opened here are closed here (each holds a few hundred
    // bytes of the UTF-8 provider's buffers: not closing `empty` leaked them on every call).
    UErrorCode detach = U_ZERO_ERROR;
    UText empty = UTEXT_INITIALIZER;
    utext_openUTF8(&empty, "", 0, &detach);
    ubrk_setUText(bi, &empty, &detach);
    utext_close(&empty);
    utext_close(&text);
    *status = err;
    return U_FAILURE(err) ? 0 : count;
}

} // extern "C"

static_assert(CFOLD_WB_OTHER == U_WB_OTHER && CFOLD_WB_ALETTER == U_WB_ALETTER && CFOLD_WB_FORMAT == U_WB_FORMAT &&
                  CFOLD_WB_KATAKANA == U_WB_KATAKANA && CFOLD_WB_MIDLETTER == U_WB_MIDLETTER &&
                  CFOLD_WB_MIDNUM == U_WB_MIDNUM && CFOLD_WB_NUMERIC == U_WB_NUMERIC &&
                  CFOLD_WB_EXTENDNUMLET == U_WB_EXTENDNUMLET && CFOLD_WB_CR == U_WB_CR &&
                  CFOLD_WB_EXTEND == U_WB_EXTEND && CFOLD_WB_LF == U_WB_LF && CFOLD_WB_MIDNUMLET == U_WB_MIDNUMLET &&
                  CFOLD_WB_NEWLINE == U_WB_NEWLINE && CFOLD_WB_REGIONAL_INDICATOR == U_WB_REGIONAL_INDICATOR &&
                  CFOLD_WB_HEBREW_LETTER == U_WB_HEBREW_LETTER && CFOLD_WB_SINGLE_QUOTE == U_WB_SINGLE_QUOTE &&
                  CFOLD_WB_DOUBLE_QUOTE == U_WB_DOUBLE_QUOTE && CFOLD_WB_ZWJ == U_WB_ZWJ &&
                  CFOLD_WB_WSEGSPACE == U_WB_WSEGSPACE,
              "CFOLD_WB_ values must be ICU's UWordBreakValues");

int32_t cfold_word_break_property(uint32_t code_point) {
    return u_getIntPropertyValue(static_cast<UChar32>(code_point), UCHAR_WORD_BREAK);
}

int32_t cfold_line_break_is_complex_context(uint32_t code_point) {
    return u_getIntPropertyValue(static_cast<UChar32>(code_point), UCHAR_LINE_BREAK) == U_LB_COMPLEX_CONTEXT ? 1 : 0;
}
