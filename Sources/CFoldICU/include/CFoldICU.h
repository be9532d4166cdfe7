// CFoldICU: the only code in Fold that includes ICU's headers.
//
// Naming rule: `cfold_x` wraps ICU's `x` (or the C++ API doing the same job); the ICU function it
// reaches is named on each declaration. Every signature uses <stdint.h> types only, so Swift never
// sees an ICU type. Statuses are ICU's UErrorCode values: 0 is success, negative values are
// warnings (success), positive values are errors; `cfold_error_name` names them.
#ifndef CFOLD_ICU_H
#define CFOLD_ICU_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Normalization forms, as ICU's Normalizer2 instances.
enum {
    CFOLD_FORM_NFC = 0,
    CFOLD_FORM_NFD = 1,
    CFOLD_FORM_NFKC = 2,
    CFOLD_FORM_NFKD = 3,
    CFOLD_FORM_NFKC_CASEFOLD = 4,
};

/// Binary properties asked of `cfold_has_property` (ICU's UProperty values behind them).
enum {
    CFOLD_PROP_DEFAULT_IGNORABLE = 0, // UCHAR_DEFAULT_IGNORABLE_CODE_POINT
    CFOLD_PROP_WHITE_SPACE = 1,       // UCHAR_WHITE_SPACE
    CFOLD_PROP_DASH = 2,              // UCHAR_DASH
    CFOLD_PROP_IDEOGRAPHIC = 3,       // UCHAR_IDEOGRAPHIC
};

/// ICU's `u_errorName`.
const char *cfold_error_name(int32_t status);

/// `u_getUnicodeVersion` and `u_getVersion`: four bytes each.
void cfold_unicode_version(uint8_t out[4]);
void cfold_icu_version(uint8_t out[4]);

/// Normalizes UTF-8 with ICU's C++ `Normalizer2::normalizeUTF8`. Returns a buffer allocated with
/// malloc (release it with `cfold_free`) and its length in `*out_length`; NULL on failure, with
/// the ICU status in `*status`. Invalid UTF-8 becomes U+FFFD (callers validate first).
uint8_t *cfold_normalize_utf8(int32_t form, const uint8_t *src, int32_t length,
                              int32_t *out_length, int32_t *status);

/// Case folding options: ICU's U_FOLD_CASE_DEFAULT, and U_FOLD_CASE_EXCLUDE_SPECIAL_I (the Turkic
/// mappings I → ı and İ → i instead of I → i and İ → i̇).
enum {
    CFOLD_FOLD_CASE_DEFAULT = 0,
    CFOLD_FOLD_CASE_TURKIC = 1,
};

/// Full case folding of UTF-8 (`u_strFoldCase` with the options named by `options`, a
/// CFOLD_FOLD_CASE_ value), same contract as `cfold_normalize_utf8`.
uint8_t *cfold_fold_case_utf8(const uint8_t *src, int32_t length, int32_t options,
                              int32_t *out_length, int32_t *status);

/// Full lowercasing of UTF-8 for a locale such as "tr" (`UnicodeString::toLower(Locale)`, which
/// applies the locale's context-sensitive rules: in Turkish, I + U+0307 becomes i), same contract
/// as `cfold_normalize_utf8`.
uint8_t *cfold_to_lower_utf8(const uint8_t *src, int32_t length, const char *locale,
                             int32_t *out_length, int32_t *status);

/// Releases a buffer returned by this module.
void cfold_free(void *pointer);

/// Full decomposition of one code point into UTF-32, by `Normalizer2::normalize` with the NFD
/// (form CFOLD_FORM_NFD) or NFKD (CFOLD_FORM_NFKD) instance. Returns the length (which may
/// exceed `capacity`: then nothing is written past it and the caller retries).
int32_t cfold_decompose(int32_t form, uint32_t code_point, uint32_t *dst, int32_t capacity,
                        int32_t *status);

/// Full case folding of one code point into UTF-32 (`u_strFoldCase`; `options` is a
/// CFOLD_FOLD_CASE_ value).
int32_t cfold_fold_case(uint32_t code_point, int32_t options, uint32_t *dst, int32_t capacity,
                        int32_t *status);

/// Canonical combining class (`u_getCombiningClass`).
uint8_t cfold_combining_class(uint32_t code_point);

/// NFC_Quick_Check (`u_getIntPropertyValue(c, UCHAR_NFC_QUICK_CHECK)`): 0 No, 1 Yes, 2 Maybe.
/// Maybe marks the code points that can combine with a preceding one.
int32_t cfold_nfc_quick_check(uint32_t code_point);

/// Primary composite of a pair (`unorm2_composePair` on NFC), or -1.
int32_t cfold_compose_pair(uint32_t first, uint32_t second);

/// The raw canonical decomposition of a code point when it is exactly two code points
/// (`unorm2_getRawDecomposition` on NFC): returns 1 and writes them, else 0.
int32_t cfold_canonical_pair(uint32_t code_point, uint32_t *first, uint32_t *second);

/// General category as ICU's UCharCategory number (`u_charType`), and its short name ("Mn").
int32_t cfold_general_category(uint32_t code_point);
const char *cfold_general_category_name(uint32_t code_point);

/// A binary property (`u_hasBinaryProperty`); `which` is a CFOLD_PROP_ value.
int32_t cfold_has_property(uint32_t code_point, int32_t which);

/// Script (`uscript_getScript`), script extensions (`uscript_getScriptExtensions`; returns the
/// count, which may exceed capacity) and the code of a script's short name ("Latn";
/// `u_getPropertyValueEnum`), -1 when unknown. `cfold_script_name` gives a short name back.
int32_t cfold_script(uint32_t code_point);
int32_t cfold_script_extensions(uint32_t code_point, int32_t *dst, int32_t capacity,
                                int32_t *status);
int32_t cfold_script_code(const char *short_name);
const char *cfold_script_name(int32_t script);

/// The character's name (`u_charName`, U_UNICODE_CHAR_NAME, falling back to the name alias and
/// then to an empty string). Returns the length, which may exceed capacity.
int32_t cfold_char_name(uint32_t code_point, char *dst, int32_t capacity, int32_t *status);

/// The code point whose name is `name` (`u_charFromName`, U_UNICODE_CHAR_NAME), or -1 when no
/// character has that name.
int32_t cfold_char_from_name(const char *name);

/// The numeric value (`u_getNumericValue`) when it is a whole number from 0 to 2^53: returns 1
/// and writes it to `*value`; returns 0 for no numeric value, fractions and negative values.
int32_t cfold_integer_value(uint32_t code_point, int64_t *value);

/// CLDR's Latin-ASCII transform applied to a UTF-32 string (`utrans_transUChars` on the
/// "Latin-ASCII" transliterator, opened once and used under a lock because a transliterator is
/// not safe to use from two threads). Returns the length, which may exceed capacity.
int32_t cfold_latin_ascii(const uint32_t *src, int32_t length, uint32_t *dst, int32_t capacity,
                          int32_t *status);

/// Word segments of UTF-8 text by ICU's word break iterator (`ubrk_open(UBRK_WORD, "")` over a
/// UTF-8 UText): writes pairs of byte offsets (start, end) of segments whose rule status is not
/// UBRK_WORD_NONE (letters, numbers, kana, ideographs). Returns the number of segments, which may
/// exceed `capacity_pairs`.
int32_t cfold_word_segments(const uint8_t *utf8, int32_t length, int32_t *bounds,
                            int32_t capacity_pairs, int32_t *status);

/// Word_Break property values (ICU's UWordBreakValues), as `cfold_word_break_property` returns
/// them; CFoldICU.cpp checks each against ICU's own constant at compile time.
enum {
    CFOLD_WB_OTHER = 0,
    CFOLD_WB_ALETTER = 1,
    CFOLD_WB_FORMAT = 2,
    CFOLD_WB_KATAKANA = 3,
    CFOLD_WB_MIDLETTER = 4,
    CFOLD_WB_MIDNUM = 5,
    CFOLD_WB_NUMERIC = 6,
    CFOLD_WB_EXTENDNUMLET = 7,
    CFOLD_WB_CR = 8,
    CFOLD_WB_EXTEND = 9,
    CFOLD_WB_LF = 10,
    CFOLD_WB_MIDNUMLET = 11,
    CFOLD_WB_NEWLINE = 12,
    CFOLD_WB_REGIONAL_INDICATOR = 13,
    CFOLD_WB_HEBREW_LETTER = 14,
    CFOLD_WB_SINGLE_QUOTE = 15,
    CFOLD_WB_DOUBLE_QUOTE = 16,
    CFOLD_WB_ZWJ = 21,
    CFOLD_WB_WSEGSPACE = 22,
};

/// Word_Break (`u_getIntPropertyValue(c, UCHAR_WORD_BREAK)`): a CFOLD_WB_ value (or another of
/// ICU's UWordBreakValues, such as the obsolete emoji values).
int32_t cfold_word_break_property(uint32_t code_point);

/// Line_Break (`u_getIntPropertyValue(c, UCHAR_LINE_BREAK)`) is Complex_Context (SA): the
/// characters ICU's word break iterator segments with a dictionary (Thai, Lao, Khmer, Myanmar,
/// ...). Returns 1 or 0.
int32_t cfold_line_break_is_complex_context(uint32_t code_point);

// MARK: - Word break data for fold-generate (CFoldICUBreakData.cpp)
// What fold-generate bakes into Sources/CFoldBreakData so that Fold's own word break iterator
// runs without ICU. Only the generator calls these.

/// ICU's compiled root word break rules: `ubrk_getBinaryRules` of `ubrk_open(UBRK_WORD, "")`
/// (an RBBIDataHeader and its sections, as rbbidata.h lays them out). Returns the length, which
/// may exceed `capacity` (then nothing is written and the caller retries).
int32_t cfold_word_break_rules(uint8_t *dst, int32_t capacity, int32_t *status);

/// A break engine's dictionary (`udata_open(U_ICUDATA_BRKITR, "dict", name)`, `name` such as
/// "thaidict"): the file's bytes after its data header (`udata_getMemory`), of the length its
/// index DictionaryData::IX_TOTAL_SIZE gives. Returns the length, which may exceed `capacity`.
int32_t cfold_break_dictionary(const char *name, uint8_t *dst, int32_t capacity, int32_t *status);

/// The ranges of a UnicodeSet pattern (`uset_openPattern`, `uset_getItem`; `pattern` is ASCII,
/// with backslash-u escapes): pairs (first, last) of code points. Returns the number of ranges, which may
/// exceed `capacity_pairs`.
int32_t cfold_unicode_set_ranges(const char *pattern, uint32_t *dst, int32_t capacity_pairs,
                                 int32_t *status);

/// The CLDR version of ICU's locale data (`ulocdata_getCLDRVersion`): four bytes.
void cfold_cldr_version(uint8_t out[4]);

#ifdef __cplusplus
}
#endif

#endif
