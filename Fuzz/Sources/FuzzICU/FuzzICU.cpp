// The fuzzers' oracle: ICU's Normalizer2 called directly (see FuzzICU.h).
#include "FuzzICU.h"

#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>
#include <unicode/uversion.h>

#include <cstring>
#include <string>

namespace {

const icu::Normalizer2 *instance(int form, UErrorCode &status) {
    switch (form) {
    case FUZZ_ICU_NFC: return icu::Normalizer2::getNFCInstance(status);
    case FUZZ_ICU_NFD: return icu::Normalizer2::getNFDInstance(status);
    case FUZZ_ICU_NFKC: return icu::Normalizer2::getNFKCInstance(status);
    case FUZZ_ICU_NFKD: return icu::Normalizer2::getNFKDInstance(status);
    case FUZZ_ICU_NFKC_CASEFOLD: return icu::Normalizer2::getNFKCCasefoldInstance(status);
    default: status = U_ILLEGAL_ARGUMENT_ERROR; return nullptr;
    }
}

} // namespace

extern "C" int fuzz_icu_normalize(int form, const uint8_t *src, int len, uint8_t *dst, int cap) {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2 *n = instance(form, status);
    if (U_FAILURE(status)) return -static_cast<int>(status);
    std::string out;
    icu::StringByteSink<std::string> sink(&out);
    n->normalizeUTF8(0, icu::StringPiece(reinterpret_cast<const char *>(src), len), sink, nullptr,
                     status);
    if (U_FAILURE(status)) return -static_cast<int>(status);
    int length = static_cast<int>(out.size());
    if (length <= cap && length > 0) std::memcpy(dst, out.data(), out.size());
    return length;
}

extern "C" int fuzz_icu_version(void) {
    UVersionInfo v;
    u_getVersion(v);
    return v[0] * 100 + v[1];
}
