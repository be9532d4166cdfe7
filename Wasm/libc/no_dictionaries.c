// For the size table only (Scripts/build-wasm.sh --no-dictionaries): the dictionary symbols of
// CFoldBreakDictionaries.c without their bytes, to measure what the dictionaries weigh. A module
// built with this must not segment Thai, Lao, Khmer or Myanmar text; nothing ships it.
#include "CFoldBreakData.h"

_Alignas(16) static const uint8_t empty[64];
const uint8_t *const cfold_break_thai_dictionary = empty;
const int32_t cfold_break_thai_dictionary_length = 0;
const uint8_t *const cfold_break_lao_dictionary = empty;
const int32_t cfold_break_lao_dictionary_length = 0;
const uint8_t *const cfold_break_khmer_dictionary = empty;
const int32_t cfold_break_khmer_dictionary_length = 0;
const uint8_t *const cfold_break_burmese_dictionary = empty;
const int32_t cfold_break_burmese_dictionary_length = 0;
