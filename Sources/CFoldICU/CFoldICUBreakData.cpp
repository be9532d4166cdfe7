// CFoldICUBreakData.cpp: what fold-generate reads from ICU to bake the word break iterator's
// data into Sources/CFoldBreakData (ICU's compiled root word rules, the dictionaries of the
// Thai, Lao, Khmer and Burmese break engines, the engines' character sets). The generator is
// its only caller: Fold itself reads the baked tables. Declarations: the last section of
// CFoldICU.h.
#include "CFoldICU.h"

#include <unicode/ubrk.h>
#include <unicode/udata.h>
#include <unicode/ulocdata.h>
#include <unicode/uset.h>
#include <unicode/ustring.h>

#include <cstring>

int32_t cfold_word_break_rules(uint8_t *dst, int32_t capacity, int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    UBreakIterator *bi = ubrk_open(UBRK_WORD, "", nullptr, 0, &err);
    int32_t length = 0;
    if (U_SUCCESS(err)) {
        length = ubrk_getBinaryRules(bi, capacity > 0 ? dst : nullptr, capacity, &err);
        if (err == U_BUFFER_OVERFLOW_ERROR) err = U_ZERO_ERROR;  // the caller retries
    }
    ubrk_close(bi);
    *status = err;
    return length;
}

// ICU's internal ubrkimpl.h names the break iterators' data tree so: "icudt72l-brkitr".
static const char kBreakIteratorTree[] = U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "brkitr";

// The dictionary file's int32 indexes, as ICU's DictionaryData (dictionarydata.h) names them.
static const int32_t kDictionaryTotalSizeIndex = 3;  // DictionaryData::IX_TOTAL_SIZE

int32_t cfold_break_dictionary(const char *name, uint8_t *dst, int32_t capacity, int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    UDataMemory *memory = udata_open(kBreakIteratorTree, "dict", name, &err);
    if (U_FAILURE(err)) {
        *status = err;
        return 0;
    }
    const uint8_t *bytes = static_cast<const uint8_t *>(udata_getMemory(memory));
    int32_t length = 0;
    std::memcpy(&length, bytes + 4 * kDictionaryTotalSizeIndex, 4);
    if (length <= capacity) std::memcpy(dst, bytes, length);
    udata_close(memory);
    *status = err;
    return length;
}

int32_t cfold_unicode_set_ranges(const char *pattern, uint32_t *dst, int32_t capacity_pairs,
                                 int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    UChar buffer[512];
    if (std::strlen(pattern) >= sizeof buffer / sizeof buffer[0]) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    u_uastrcpy(buffer, pattern);
    USet *set = uset_openPattern(buffer, -1, &err);
    int32_t count = 0;
    if (U_SUCCESS(err)) {
        count = uset_getItemCount(set);
        for (int32_t i = 0; i < count && i < capacity_pairs; i++) {
            UChar32 start = 0, end = 0;
            uset_getItem(set, i, &start, &end, nullptr, 0, &err);
            dst[2 * i] = static_cast<uint32_t>(start);
            dst[2 * i + 1] = static_cast<uint32_t>(end);
        }
    }
    uset_close(set);
    *status = err;
    return count;
}

void cfold_cldr_version(uint8_t out[4]) {
    UVersionInfo version = {0, 0, 0, 0};
    UErrorCode err = U_ZERO_ERROR;
    ulocdata_getCLDRVersion(version, &err);
    std::memcpy(out, version, 4);
}
